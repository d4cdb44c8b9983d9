import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { httpHandler, json } from '../lib/http';
import { statsSummary } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

/** GET /api/admin/stats: the dashboard's totals, all time, per status (one item read). */
export function makeHandler({ rollups }: { readonly rollups: RollupsReader }) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    requireStaff(event);
    return json(200, await statsSummary(rollups));
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('rollups');
  return makeHandler({ rollups: makeRollupsReader(db, tables.rollups) });
});
