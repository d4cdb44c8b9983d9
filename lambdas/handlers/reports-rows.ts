import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { type ReportRowsResponse, reportRowsQuerySchema } from '../../rules/report';
import { type ApplicationRows, decodeCursor, encodeCursor, makeApplicationRows } from '../adapters/application-rows';
import { makeRollupsStore, type RollupsStore } from '../adapters/rollups';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { AppError, httpHandler, json, parseQuery } from '../lib/http';
import { reportTotal } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';

export interface ReportsRowsDeps {
  readonly rows: ApplicationRows;
  readonly rollups: RollupsStore;
  readonly clock: () => Date;
}

/**
 * GET /api/admin/reports/rows: the applications matching the report filters, newest
 * first, a page at a time (the raw-data table and the CSV export page through them).
 * The total comes from the rollups on the first page and travels in the cursor.
 */
export function makeHandler({ rows, rollups, clock }: ReportsRowsDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    requireStaff(event);
    const { filters, limit, cursor } = parseQuery(event, reportRowsQuerySchema);
    const resumed = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && !resumed)
      throw new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID_CURSOR' } });
    const [total, page] = await Promise.all([
      resumed ? resumed.total : reportTotal(rollups, filters, clock()),
      rows.page(filters, limit, resumed?.after),
    ]);
    const body: ReportRowsResponse = {
      items: page.items,
      total,
      ...(page.last !== undefined && { nextCursor: encodeCursor({ v: 1, after: page.last, total }) }),
    };
    return json(200, body);
  });
}

const env = parseEnv(baseEnvSchema);
const db = makeDocumentClient(env);
export const handler = makeHandler({
  rows: makeApplicationRows(db, tableName('applications')),
  rollups: makeRollupsStore(db, tableName('rollups')),
  clock: systemClock(),
});
