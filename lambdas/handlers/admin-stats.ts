import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { makeDocumentClient } from '../lib/dynamo';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { httpHandler, json } from '../lib/http';
import { statsSummary } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';

/** GET /api/admin/stats: the dashboard's totals, all time, per status (one item read). */
export function makeHandler({ rollups }: { readonly rollups: RollupsReader }) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    requireStaff(event);
    return json(200, await statsSummary(rollups));
  });
}

const env = parseEnv(baseEnvSchema);
export const handler = makeHandler({ rollups: makeRollupsReader(makeDocumentClient(env), tableName('rollups')) });
