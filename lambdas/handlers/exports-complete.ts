import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportCompleteRequestSchema } from '../../rules/staff-api';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/** Completes an export's audit entry with the number of rows written. */
const { db, tables } = staffRuntime();
const review = makeReviewStore(db, tables);
const clock = systemClock();

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  requireStaff(event);
  const exportId = pathParameter(event, 'id');
  const { rows } = parseBody(event, exportCompleteRequestSchema);
  if ((await review.completeExport(exportId, rows, clock())) === 'not-found') throw new AppError('NOT_FOUND');
  return json(200, { exportId, rows });
});
