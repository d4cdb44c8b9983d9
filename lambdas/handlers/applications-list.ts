import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ListResponse } from '../../rules/staff-api';
import { listRequestSchema } from '../../rules/staff-api';
import { listApplications, type ListPage } from '../adapters/application-list';
import { countSearch, searchApplications, type SearchPage } from '../adapters/application-search';
import type { ReadAudit } from '../adapters/read-audit';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { makeSearchIndex } from '../adapters/search-index';
import { totalFromRollups } from '../lib/application-totals';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { readAuditFromEnv } from '../lib/read-audit-runtime';
import { scopeApplicationFilters, type ScopedApplicationFilters } from '../lib/scoped-filters';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface PageRequest {
  readonly pageSize: number;
  readonly cursor?: string;
}

/** The page and its exact total: a text search answers both from one read of the index. */
async function pageWithTotal(deps: ListDeps, filters: ScopedApplicationFilters, page: PageRequest) {
  if (filters.q) {
    const found = await deps.search({ ...filters, q: filters.q }, page);
    return [found, found.total] as const;
  }
  return Promise.all([deps.list(filters, page), deps.total(filters)]);
}

export interface ListDeps {
  readonly list: (filters: ScopedApplicationFilters, page: PageRequest) => Promise<ListPage>;
  /** The exact number of rows matching the filters (without a text search). */
  readonly total: (filters: ScopedApplicationFilters) => Promise<number>;
  /** A text search's page and exact total, from the search index (issue 18). */
  readonly search: (
    filters: ScopedApplicationFilters & { readonly q: string },
    page: PageRequest,
  ) => Promise<SearchPage>;
  readonly audit: ReadAudit;
  readonly clock: () => Date;
}

/**
 * POST /api/admin/applications/search: the dashboard's page of applications, filtered
 * and searched on the server. A POST so that the search term stays out of every URL
 * (and so out of CloudFront's logs). The rows served are on the record before they leave.
 * A scoped staff member reads their districts only: a district outside them answers an
 * empty page (the audit keeps the filters as asked, which an export's pages must repeat).
 */
export function makeHandler(deps: ListDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const { filters, pageSize, cursor, exportId } = parseBody(event, listRequestSchema);
    const scoped = scopeApplicationFilters(staff.scope, filters);
    const [page, total] = scoped
      ? await pageWithTotal(deps, scoped, { pageSize, ...(cursor && { cursor }) })
      : [{ items: [], scanned: 0 } satisfies ListPage, 0];
    await deps.audit.record(
      { actor: staff, scope: { screen: 'dashboard', filters }, rows: page.items.length, ...(exportId && { exportId }) },
      deps.clock(),
    );
    const body: ListResponse = { items: page.items, total, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    return json(200, body);
  });
}

// The applications, rollups and search tables, and the audit and rate-limits tables for
// the read audit: all this function is granted (lib/api-routes.ts).
export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'rollups', 'search');
  const clock = systemClock();
  const index = makeSearchIndex(db, tables.search);
  return makeHandler({
    list: (filters, page) => listApplications(db, tables.applications, filters, page),
    total: totalFromRollups(makeRollupsReader(db, tables.rollups), (f) => countSearch(index, f), clock),
    search: (filters, page) => searchApplications(db, tables, index, filters, page),
    audit: readAuditFromEnv(db),
    clock,
  });
});
