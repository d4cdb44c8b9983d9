import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensurePool, ensureStaffUser, startCognitoLocal } from '../../local/cognito';
import { ensureTables, localTableNames, startDynamoDbLocal } from '../../local/dynamodb';
import { testStaff } from './staff';

// Real servers for the integration tier: DynamoDB Local (in memory) and cognito-local
// (in a temporary folder) on free ports, with the tables and the pool created from the
// same definitions as the local stack. Torn down after the run.
export default async function setup(project: TestProject) {
  const cognitoDir = mkdtempSync(join(tmpdir(), 'membership-cognito-'));
  const [dynamo, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal({ dataDir: cognitoDir })]);
  const tableNames = localTableNames('it');
  await ensureTables(dynamo.client, tableNames);
  const pool = await ensurePool(cognito);
  for (const user of Object.values(testStaff)) await ensureStaffUser(cognito, pool, user);

  project.provide('dynamoDbEndpoint', dynamo.endpoint);
  project.provide('tableNames', tableNames);
  project.provide('cognitoEndpoint', cognito.endpoint);
  project.provide('pool', pool);

  return async () => {
    await Promise.all([dynamo.stop(), cognito.stop()]);
    rmSync(cognitoDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
    tableNames: Record<string, string>;
    cognitoEndpoint: string;
    pool: { userPoolId: string; clientId: string; issuer: string };
  }
}
