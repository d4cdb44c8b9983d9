import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportCompleteRequestSchema } from '../../rules/staff-api';
import { makeExportCompletion } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';

/** Completes an export's audit entry with the number of rows written. */
// Only the audit table: it is all this function is granted (lib/api-routes.ts), and a
// table name it lacks would fail every cold start.
const review = makeExportCompletion(makeDocumentClient(parseEnv(baseEnvSchema)), tableName('audit'));
const clock = systemClock();

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  requireStaff(event);
  const exportId = pathParameter(event, 'id');
  const { rows } = parseBody(event, exportCompleteRequestSchema);
  if ((await review.completeExport(exportId, rows, clock())) === 'not-found') throw new AppError('NOT_FOUND');
  return json(200, { exportId, rows });
});
