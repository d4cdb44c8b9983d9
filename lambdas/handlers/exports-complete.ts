import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportCompleteRequestSchema } from '../../rules/staff-api';
import { makeExportCompletion, type ReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly review: Pick<ReviewStore, 'completeExport'>;
  readonly clock: () => Date;
}

/**
 * Completes an export's audit entry, once, by whoever started it; the row count is the
 * one the server served for it, not the browser's.
 */
export function makeHandler({ review, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const exportId = pathParameter(event, 'id');
    parseBody(event, exportCompleteRequestSchema);
    const completed = await review.completeExport(exportId, staff, clock());
    if (completed === 'not-found') throw new AppError('NOT_FOUND');
    return json(200, { exportId, rows: completed.rows });
  });
}

// Only the audit table: it is all this function is granted (lib/api-routes.ts).
export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('audit');
  return makeHandler({ review: makeExportCompletion(db, tables.audit), clock: systemClock() });
});
