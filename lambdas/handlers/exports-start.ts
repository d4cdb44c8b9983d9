import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportStartRequestSchema } from '../../rules/staff-api';
import { countApplications } from '../adapters/application-list';
import { makeRollupsStore } from '../adapters/rollups';
import { tableName } from '../lib/env';
import { totalFromRollups } from '../lib/application-totals';
import { makeReviewStore } from '../adapters/review';
import { systemClock } from '../lib/clock';
import { httpHandler, json, parseBody } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/** Records an export in the audit trail before its pages are read; answers the row count. */
const { db, tables } = staffRuntime();
const review = makeReviewStore(db, tables);
const clock = systemClock();
const countMatching = totalFromRollups(makeRollupsStore(db, tableName('rollups')), (f) => countApplications(db, tables.applications, f), clock);

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  const staff = requireStaff(event);
  const { filters } = parseBody(event, exportStartRequestSchema);
  const [exportId, total] = await Promise.all([
    review.startExport(filters, staff, clock()),
    countMatching(filters),
  ]);
  return json(201, { exportId, total });
});
