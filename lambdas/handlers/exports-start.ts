import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ReportFilters } from '../../rules/report';
import { exportStartRequestSchema, type ExportStartResponse } from '../../rules/staff-api';
import { countSearch } from '../adapters/application-search';
import type { ReadScope } from '../adapters/read-audit';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { makeSearchIndex } from '../adapters/search-index';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { totalFromRollups } from '../lib/application-totals';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { reportTotal } from '../lib/rollups-report';
import {
  exportScopeOf,
  scopeApplicationFilters,
  scopeReportFilters,
  type ScopedApplicationFilters,
} from '../lib/scoped-filters';
import { requireStaff } from '../lib/staff';
import type { StaffScope } from '../../rules/staff-scope';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly review: Pick<ReviewStore, 'startExport'>;
  /** Rows the dashboard's list would serve for these filters. */
  readonly dashboardTotal: (filters: ScopedApplicationFilters) => Promise<number>;
  /** Rows the Reports page's table would serve for these filters. */
  readonly reportTotal: (filters: ReportFilters, now: Date) => Promise<number>;
  readonly clock: () => Date;
}

/**
 * Records an export in the audit trail before its pages are read (the dashboard's list
 * or the Reports page's rows); answers the row count. The pages then name the export,
 * and the server counts what it serves into it. A scoped staff member's export holds
 * their districts' rows only: the audit entry keeps the scope (district ids, or 'all'),
 * and the answer carries it for the file's name (rules/csv.ts, exportFileName).
 */
export function makeHandler({ review, dashboardTotal, reportTotal, clock }: Deps) {
  /** The rows the export will hold: the filters within the scope (none in it: none). */
  const scopedTotal = async (read: ReadScope, staffScope: StaffScope): Promise<number> => {
    if (read.screen === 'reports') {
      const filters = scopeReportFilters(staffScope, read.filters);
      return filters ? reportTotal(filters, clock()) : 0;
    }
    const filters = scopeApplicationFilters(staffScope, read.filters);
    return filters ? dashboardTotal(filters) : 0;
  };
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const request = parseBody(event, exportStartRequestSchema);
    // The filters as asked: the pages read for the export repeat them (read-audit.ts).
    const scope: ReadScope =
      'report' in request
        ? { screen: 'reports', filters: request.report }
        : { screen: 'dashboard', filters: request.filters };
    const districts = exportScopeOf(staff.scope);
    const [exportId, total] = await Promise.all([
      review.startExport(scope, staff, clock(), districts),
      scopedTotal(scope, staff.scope),
    ]);
    const body: ExportStartResponse = { exportId, total, scope: districts === 'all' ? 'all' : [...districts] };
    return json(201, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit', 'rollups', 'search');
  const clock = systemClock();
  const rollups = makeRollupsReader(db, tables.rollups);
  const search = makeSearchIndex(db, tables.search);
  return makeHandler({
    review: makeReviewStore(db, tables),
    dashboardTotal: totalFromRollups(rollups, (f) => countSearch(search, f), clock),
    reportTotal: (filters, now) => reportTotal(rollups, filters, now),
    clock,
  });
});
