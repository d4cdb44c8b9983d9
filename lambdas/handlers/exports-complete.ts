import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportCompleteRequestSchema } from '../../rules/staff-api';
import { makeExportCompletion } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';

/**
 * Completes an export's audit entry, once, by whoever started it; the row count is the
 * one the server served for it, not the browser's.
 */
// Only the audit table: it is all this function is granted (lib/api-routes.ts), and a
// table name it lacks would fail every cold start.
const review = makeExportCompletion(makeDocumentClient(parseEnv(baseEnvSchema)), tableName('audit'));
const clock = systemClock();

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  const staff = requireStaff(event);
  const exportId = pathParameter(event, 'id');
  parseBody(event, exportCompleteRequestSchema);
  const completed = await review.completeExport(exportId, staff, clock());
  if (completed === 'not-found') throw new AppError('NOT_FOUND');
  return json(200, { exportId, rows: completed.rows });
});
