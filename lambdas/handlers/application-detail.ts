import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ApplicationDetail } from '../../rules/staff-api';
import { toRow } from '../adapters/application-list';
import { applicationKey } from '../adapters/applications';
import { makeReviewStore } from '../adapters/review';
import { AppError, httpHandler, json, pathParameter } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { staffRuntime } from '../lib/staff-runtime';

/** One application with its audit trail, for the dashboard's details row. */
const { db, tables } = staffRuntime();
const review = makeReviewStore(db, tables);

export const handler = httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
  requireStaff(event);
  const id = pathParameter(event, 'id');
  const [item, audit] = await Promise.all([
    db.send(new GetCommand({ TableName: tables.applications, Key: { pk: applicationKey(id) } })),
    review.auditOf(id),
  ]);
  if (!item.Item) throw new AppError('NOT_FOUND');
  const body: ApplicationDetail = { application: toRow(item.Item), audit };
  return json(200, body);
});
