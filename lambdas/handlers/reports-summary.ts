import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { reportFiltersSchema } from '../../rules/report';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { type CapacityMeter, type DynamoUsage, meterCapacity } from '../lib/capacity-meter';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseQuery } from '../lib/http';
import { logger } from '../lib/logger';
import { reportSummary } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

/** What one report cost: DynamoDB reads and time in the handler. */
export interface ReportCost extends DynamoUsage {
  readonly ms: number;
}

export interface ReportsSummaryDeps {
  readonly rollups: RollupsReader;
  readonly clock: () => Date;
  /** Meter on the rollups' client: the cost of each report is logged. */
  readonly meter: CapacityMeter;
  readonly onCost?: (cost: ReportCost) => void;
}

/** GET /api/admin/reports/summary: the figures of the Reports page, from the rollups. */
export function makeHandler({ rollups, clock, meter, onCost }: ReportsSummaryDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    requireStaff(event);
    const filters = parseQuery(event, reportFiltersSchema);
    const started = performance.now();
    const { result, usage } = await meter.measure(() => reportSummary(rollups, filters, clock()));
    const cost: ReportCost = { ...usage, ms: Math.round((performance.now() - started) * 10) / 10 };
    logger.info('Report summary', {
      days: result.series.length,
      statuses: filters.statuses.length,
      districts: filters.districts.length,
      ...cost,
    });
    onCost?.(cost);
    const response = json(200, result);
    response.headers = { ...response.headers, 'server-timing': `report;dur=${cost.ms}` };
    return response;
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('rollups');
  return makeHandler({
    rollups: makeRollupsReader(db, tables.rollups),
    clock: systemClock(),
    meter: meterCapacity(db),
  });
});
