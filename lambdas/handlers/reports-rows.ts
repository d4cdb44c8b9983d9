import * as v from 'valibot';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { type ReportRowsResponse, reportRowsQuerySchema } from '../../rules/report';
import { exportIdSchema } from '../../rules/staff-api';
import { decodeCursor, encodeCursor } from '../adapters/application-query';
import { type ApplicationRows, makeApplicationRows } from '../adapters/application-rows';
import type { ReadAudit } from '../adapters/read-audit';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { systemClock } from '../lib/clock';
import { AppError, httpHandler, json, parseQuery } from '../lib/http';
import { readAuditFromEnv } from '../lib/read-audit-runtime';
import { reportTotal } from '../lib/rollups-report';
import { scopeReportFilters } from '../lib/scoped-filters';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

export interface ReportsRowsDeps {
  readonly rows: ApplicationRows;
  readonly rollups: RollupsReader;
  readonly clock: () => Date;
  readonly audit: ReadAudit;
}

// `exportId` names the export these pages are read for (POST /api/admin/exports); the
// other parameters are the report's, never a search term (CloudFront logs query strings).
const querySchema = v.intersect([reportRowsQuerySchema, v.object({ exportId: v.optional(exportIdSchema) })]);

/**
 * GET /api/admin/reports/rows: the applications matching the report filters, newest
 * first, a page at a time (the raw-data table and the CSV export page through them).
 * The total comes from the rollups on the first page and travels in the cursor. The
 * rows served are on the record before they leave (lambdas/adapters/read-audit.ts).
 * A scoped staff member reads their districts' rows only (none asked for in the scope:
 * no rows); the audit keeps the filters as asked, which an export started for them names.
 */
export function makeHandler({ rows, rollups, clock, audit }: ReportsRowsDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const { filters, limit, cursor, exportId } = parseQuery(event, querySchema);
    const resumed = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && !resumed)
      throw new AppError('VALIDATION_FAILED', { fields: { cursor: 'INVALID_CURSOR' } });
    const scoped = scopeReportFilters(staff.scope, filters);
    const [total, page] = scoped
      ? await Promise.all([
          // A cursor carries the total counted on the first page (a dashboard cursor has none).
          resumed?.total ?? reportTotal(rollups, scoped, clock()),
          rows.page(scoped, limit, resumed?.after),
        ])
      : [0, { items: [] }];
    await audit.record(
      { actor: staff, scope: { screen: 'reports', filters }, rows: page.items.length, ...(exportId && { exportId }) },
      clock(),
    );
    const body: ReportRowsResponse = {
      items: page.items,
      total,
      ...(page.last !== undefined && { nextCursor: encodeCursor({ v: 1, after: page.last, total }) }),
    };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'rollups');
  return makeHandler({
    rows: makeApplicationRows(db, tables.applications),
    rollups: makeRollupsReader(db, tables.rollups),
    clock: systemClock(),
    audit: readAuditFromEnv(db),
  });
});
