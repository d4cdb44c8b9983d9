import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ApplicationFilters, ListResponse } from '../../rules/staff-api';
import { listQuerySchema } from '../../rules/staff-api';
import { countApplications, listApplications, type ListPage } from '../adapters/application-list';
import { makeRollupsStore } from '../adapters/rollups';
import { totalFromRollups } from '../lib/application-totals';
import { systemClock } from '../lib/clock';
import { makeDocumentClient } from '../lib/dynamo';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { httpHandler, json, parseQuery } from '../lib/http';
import { requireStaff } from '../lib/staff';

export interface ListDeps {
  readonly list: (filters: ApplicationFilters, page: { pageSize: number; cursor?: string }) => Promise<ListPage>;
  /** The exact number of rows matching the filters. */
  readonly total: (filters: ApplicationFilters) => Promise<number>;
}

/** The dashboard's page of applications, filtered and searched on the server. */
export function makeHandler(deps: ListDeps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    requireStaff(event);
    const { pageSize, cursor, ...filters } = parseQuery(event, listQuerySchema);
    const [page, total] = await Promise.all([
      deps.list(filters, { pageSize, ...(cursor && { cursor }) }),
      deps.total(filters),
    ]);
    const body: ListResponse = { items: page.items, total, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    return json(200, body);
  });
}

// The applications and rollups tables only: all this function is granted (lib/api-routes.ts);
// a table name it lacks (staffRuntime's audit) would fail every cold start.
const db = makeDocumentClient(parseEnv(baseEnvSchema));
const applicationsTable = tableName('applications');
export const handler = makeHandler({
  list: (filters, page) => listApplications(db, applicationsTable, filters, page),
  total: totalFromRollups(
    makeRollupsStore(db, tableName('rollups')),
    (filters) => countApplications(db, applicationsTable, filters),
    systemClock(),
  ),
});
