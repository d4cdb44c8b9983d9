import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ApplicationDetail } from '../../rules/staff-api';
import { toRow } from '../adapters/application-items';
import { makeApplicationRepository } from '../adapters/applications';
import { makeDecisionNoticeStore, noticesWithStatus } from '../adapters/decision-notices';
import { makeDeliveryStore } from '../adapters/deliveries';
import { makeReviewStore } from '../adapters/review';
import { tableName } from '../lib/env';
import { AppError, httpHandler, json, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/** One application with its audit trail and the decision notices sent, for the dashboard's details row. */
const { db, tables } = staffRuntime();
const applications = makeApplicationRepository(db, tables.applications);
const review = makeReviewStore(db, tables);
const deliveriesTable = tableName('deliveries');
const notices = makeDecisionNoticeStore(db, deliveriesTable);
const deliveries = makeDeliveryStore(db, deliveriesTable);

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  requireStaff(event);
  const id = pathParameter(event, 'id');
  const [item, audit, sent] = await Promise.all([
    applications.get(id),
    review.auditOf(id),
    noticesWithStatus(notices, deliveries, id),
  ]);
  if (!item) throw new AppError('NOT_FOUND');
  const body: ApplicationDetail = { application: toRow(item), audit, notices: sent };
  return json(200, body);
});
