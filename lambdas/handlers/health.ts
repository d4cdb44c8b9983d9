import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HealthResponse } from '../../rules/api';
import { baseEnvSchema, parseEnv, tableName } from '../lib/env';
import { makeDocumentClient } from '../lib/dynamo';
import { httpHandler, json } from '../lib/http';

interface Deps {
  readonly db: DynamoDBDocumentClient;
  readonly applicationsTable: string;
  readonly stage: string;
  readonly clock: () => Date;
}

/** Liveness through every layer: a real read of the applications table. */
export function makeHandler({ db, applicationsTable, stage, clock }: Deps) {
  return httpHandler<APIGatewayProxyEventV2>(async () => {
    await db.send(new GetCommand({ TableName: applicationsTable, Key: { pk: 'HEALTH' }, ProjectionExpression: 'pk' }));
    const body: HealthResponse = { status: 'ok', stage, database: 'ok', time: clock().toISOString() };
    return json(200, body);
  });
}

const env = parseEnv(baseEnvSchema);
export const handler = makeHandler({
  db: makeDocumentClient(env),
  applicationsTable: tableName('applications'),
  stage: env.STAGE,
  clock: () => new Date(),
});
