import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ReportFilters } from '../../rules/report';
import { type ApplicationFilters, exportStartRequestSchema } from '../../rules/staff-api';
import { countApplications } from '../adapters/application-list';
import type { ReadScope } from '../adapters/read-audit';
import { makeReviewStore, type ReviewStore } from '../adapters/review';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { totalFromRollups } from '../lib/application-totals';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { reportTotal } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly review: Pick<ReviewStore, 'startExport'>;
  /** Rows the dashboard's list would serve for these filters. */
  readonly dashboardTotal: (filters: ApplicationFilters) => Promise<number>;
  /** Rows the Reports page's table would serve for these filters. */
  readonly reportTotal: (filters: ReportFilters, now: Date) => Promise<number>;
  readonly clock: () => Date;
}

/**
 * Records an export in the audit trail before its pages are read (the dashboard's list
 * or the Reports page's rows); answers the row count. The pages then name the export,
 * and the server counts what it serves into it.
 */
export function makeHandler({ review, dashboardTotal, reportTotal, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const request = parseBody(event, exportStartRequestSchema);
    const scope: ReadScope =
      'report' in request
        ? { screen: 'reports', filters: request.report }
        : { screen: 'dashboard', filters: request.filters };
    const [exportId, total] = await Promise.all([
      review.startExport(scope, staff, clock()),
      scope.screen === 'reports' ? reportTotal(scope.filters, clock()) : dashboardTotal(scope.filters),
    ]);
    return json(201, { exportId, total });
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit', 'rollups');
  const clock = systemClock();
  const rollups = makeRollupsReader(db, tables.rollups);
  return makeHandler({
    review: makeReviewStore(db, tables),
    dashboardTotal: totalFromRollups(rollups, (f) => countApplications(db, tables.applications, f), clock),
    reportTotal: (filters, now) => reportTotal(rollups, filters, now),
    clock,
  });
});
