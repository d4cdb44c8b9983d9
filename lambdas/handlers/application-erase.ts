import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { AppError, httpHandler, json, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly review: Pick<ReviewStore, 'erase'>;
  readonly clock: () => Date;
}

/**
 * Erasure on request (DPDP Act 2023): the application and its number's guard go, so the
 * person may apply again; the audit keeps who erased which id and when.
 */
export function makeHandler({ review, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event, 'admin');
    const id = pathParameter(event, 'id');
    if ((await review.erase(id, staff, clock())) === 'not-found') throw new AppError('NOT_FOUND');
    logger.info('Application erased', { applicationId: id });
    return json(200, { erased: id });
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit');
  return makeHandler({ review: makeReviewStore(db, tables), clock: systemClock() });
});
