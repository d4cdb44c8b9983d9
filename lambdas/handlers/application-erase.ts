import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { AppError, httpHandler, json, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/**
 * Erasure on request (DPDP Act 2023): the application and its number's guard go, so the
 * person may apply again; the audit keeps who erased which id and when.
 */
const { db, tables } = staffRuntime();
const review = makeReviewStore(db, tables);
const clock = systemClock();

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  const staff = requireStaff(event, 'write');
  const id = pathParameter(event, 'id');
  if ((await review.erase(id, staff, clock())) === 'not-found') throw new AppError('NOT_FOUND');
  logger.info('Application erased', { applicationId: id });
  return json(200, { erased: id });
});
