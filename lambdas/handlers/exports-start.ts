import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportStartRequestSchema } from '../../rules/staff-api';
import { countApplications } from '../adapters/application-list';
import type { ReadScope } from '../adapters/read-audit';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { tableName } from '../lib/env';
import { totalFromRollups } from '../lib/application-totals';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { reportTotal } from '../lib/rollups-report';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/**
 * Records an export in the audit trail before its pages are read (the dashboard's list
 * or the Reports page's rows); answers the row count. The pages then name the export,
 * and the server counts what it serves into it.
 */
const { db, tables } = staffRuntime();
const review = makeReviewStore(db, tables);
const clock = systemClock();
const rollups = makeRollupsReader(db, tableName('rollups'));
const countMatching = totalFromRollups(rollups, (f) => countApplications(db, tables.applications, f), clock);

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  const staff = requireStaff(event);
  const request = parseBody(event, exportStartRequestSchema);
  const scope: ReadScope = 'report' in request ? { screen: 'reports', filters: request.report } : { screen: 'dashboard', filters: request.filters };
  const [exportId, total] = await Promise.all([
    review.startExport(scope, staff, clock()),
    scope.screen === 'reports' ? reportTotal(rollups, scope.filters, clock()) : countMatching(scope.filters),
  ]);
  return json(201, { exportId, total });
});
