import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ApplicationFilters, ListResponse } from '../../rules/staff-api';
import { listRequestSchema } from '../../rules/staff-api';
import { countApplications, listApplications, type ListPage } from '../adapters/application-list';
import type { ReadAudit } from '../adapters/read-audit';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { totalFromRollups } from '../lib/application-totals';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { readAuditFromEnv } from '../lib/read-audit-runtime';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

export interface ListDeps {
  readonly list: (filters: ApplicationFilters, page: { pageSize: number; cursor?: string }) => Promise<ListPage>;
  /** The exact number of rows matching the filters. */
  readonly total: (filters: ApplicationFilters) => Promise<number>;
  readonly audit: ReadAudit;
  readonly clock: () => Date;
}

/**
 * POST /api/admin/applications/search: the dashboard's page of applications, filtered
 * and searched on the server. A POST so that the search term stays out of every URL
 * (and so out of CloudFront's logs). The rows served are on the record before they leave.
 */
export function makeHandler(deps: ListDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const { filters, pageSize, cursor, exportId } = parseBody(event, listRequestSchema);
    const [page, total] = await Promise.all([
      deps.list(filters, { pageSize, ...(cursor && { cursor }) }),
      deps.total(filters),
    ]);
    await deps.audit.record(
      { actor: staff, scope: { screen: 'dashboard', filters }, rows: page.items.length, ...(exportId && { exportId }) },
      deps.clock(),
    );
    const body: ListResponse = { items: page.items, total, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    return json(200, body);
  });
}

// The applications and rollups tables, and the audit and rate-limits tables for the read
// audit: all this function is granted (lib/api-routes.ts).
export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'rollups');
  const clock = systemClock();
  const count = (filters: ApplicationFilters) => countApplications(db, tables.applications, filters);
  return makeHandler({
    list: (filters, page) => listApplications(db, tables.applications, filters, page),
    total: totalFromRollups(makeRollupsReader(db, tables.rollups), count, clock),
    audit: readAuditFromEnv(db),
    clock,
  });
});
