import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { reportFiltersSchema, type ReportSummary } from '../../rules/report';
import { makeReferrerNames } from '../adapters/referrer-names';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { type CapacityMeter, type DynamoUsage, meterCapacity } from '../lib/capacity-meter';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseQuery } from '../lib/http';
import { logger } from '../lib/logger';
import { emptyReport, reportSummary } from '../lib/rollups-report';
import { type ReferrerNames, topReferrers } from '../lib/referrals';
import { scopeReportFilters } from '../lib/scoped-filters';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

/** What one report cost: DynamoDB reads and time in the handler. */
export interface ReportCost extends DynamoUsage {
  readonly ms: number;
}

export interface ReportsSummaryDeps {
  readonly rollups: RollupsReader;
  /** The leaderboard's names (issue 19); without it, no leaderboard. */
  readonly referrerNames?: ReferrerNames;
  readonly clock: () => Date;
  /** Meter on the rollups' client: the cost of each report is logged. */
  readonly meter: CapacityMeter;
  readonly onCost?: (cost: ReportCost) => void;
}

/**
 * GET /api/admin/reports/summary: the figures of the Reports page, from the rollups. A
 * scoped staff member's figures are their districts' rows of the rollups (exact, and
 * read at the same cost); none of the districts asked for in their scope: zeros.
 */
export function makeHandler({ rollups, referrerNames, clock, meter, onCost }: ReportsSummaryDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const asked = parseQuery(event, reportFiltersSchema);
    const filters = scopeReportFilters(staff.scope, asked);
    const started = performance.now();
    const { result, usage } = await meter.measure(async (): Promise<ReportSummary> => {
      if (!filters) return emptyReport(rollups, asked, clock());
      const [summary, leaders] = await Promise.all([
        reportSummary(rollups, filters, clock()),
        referrerNames ? topReferrers(rollups, referrerNames, filters, staff.scope) : undefined,
      ]);
      return leaders ? { ...summary, topReferrers: leaders } : summary;
    });
    const cost: ReportCost = { ...usage, ms: Math.round((performance.now() - started) * 10) / 10 };
    logger.info('Report summary', {
      days: result.series.length,
      statuses: asked.statuses.length,
      districts: filters?.districts.length ?? 0,
      ...cost,
    });
    onCost?.(cost);
    const response = json(200, result);
    response.headers = { ...response.headers, 'server-timing': `report;dur=${cost.ms}` };
    return response;
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('rollups', 'applications');
  return makeHandler({
    rollups: makeRollupsReader(db, tables.rollups),
    referrerNames: makeReferrerNames(db, tables.applications),
    clock: systemClock(),
    meter: meterCapacity(db),
  });
});
