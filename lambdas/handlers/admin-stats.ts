import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { httpHandler, json } from '../lib/http';
import { systemClock } from '../lib/clock';
import { districtStatsSummary, statsSummary } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

/**
 * GET /api/admin/stats: the dashboard's totals, all time, per status: one item read for
 * every district; a scoped staff member's from their districts' rows of the rollups,
 * never the totals item (which counts the districts they may not see).
 */
export function makeHandler({
  rollups,
  clock = () => new Date(),
}: {
  readonly rollups: RollupsReader;
  readonly clock?: () => Date;
}) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const { scope } = requireStaff(event);
    const stats = scope.districts
      ? await districtStatsSummary(rollups, scope.districts, clock())
      : await statsSummary(rollups);
    return json(200, stats);
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('rollups');
  return makeHandler({ rollups: makeRollupsReader(db, tables.rollups), clock: systemClock() });
});
