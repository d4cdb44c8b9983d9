import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { z } from 'zod';
import { tables, type TableKey } from '../contracts/table-definitions';
import { type Db, makeDb } from '../lambdas/lib/db';
import { stackNames } from '../lib/constructs/membership-stacks';
import { localDb } from '../local/dynamodb';
import { loadStageConfig } from '../lib/stages';

// Where an operator command acts: the running local stack (default) or a deployed stage
// (`--stage NAME`, its resources read from the stacks' outputs).

export const localEndpointsSchema = z.object({
  dynamoDbEndpoint: z.string(),
  cognitoEndpoint: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  outboundQueueUrl: z.string(),
  tableNames: z.record(z.string(), z.string()),
});
export type LocalEndpoints = z.infer<typeof localEndpointsSchema>;

const endpointsFile = (dataDir: string) => join(resolve(dataDir), 'endpoints.json');

/** Written by `npm start` so that commands find the running stack's free ports. */
export function writeLocalEndpoints(dataDir: string, endpoints: LocalEndpoints): void {
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(endpointsFile(dataDir), JSON.stringify(endpoints, null, 2));
}

export function removeLocalEndpoints(dataDir: string): void {
  rmSync(endpointsFile(dataDir), { force: true });
}

export interface Target {
  readonly name: string;
  readonly region: string;
  /** Set in local mode: the SDK clients' endpoint and fake credentials. */
  readonly dynamoDbEndpoint?: string;
  readonly cognitoEndpoint?: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  readonly outboundQueueUrl: string;
  readonly outboundDeadLetterQueueUrl: string;
  readonly tableNames: Record<TableKey, string>;
  readonly local: boolean;
}

const localTarget = (dataDir: string): Target => {
  const file = endpointsFile(dataDir);
  if (!existsSync(file)) {
    throw new Error(`The local stack is not running (no ${file}). Start it with \`npm start\` in another terminal.`);
  }
  const endpoints = localEndpointsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return {
    name: 'local',
    region: 'ap-south-1',
    local: true,
    dynamoDbEndpoint: endpoints.dynamoDbEndpoint,
    cognitoEndpoint: endpoints.cognitoEndpoint,
    userPoolId: endpoints.userPoolId,
    userPoolClientId: endpoints.userPoolClientId,
    outboundQueueUrl: endpoints.outboundQueueUrl,
    // The local SQS endpoint serves each queue's dead letters as `<name>-dlq`.
    outboundDeadLetterQueueUrl: `${endpoints.outboundQueueUrl}-dlq`,
    tableNames: endpoints.tableNames,
  };
};

async function stageTarget(stage: string): Promise<Target> {
  const config = loadStageConfig(stage);
  const names = stackNames(config);
  const client = new CloudFormationClient({ region: config.region });
  const outputs: Record<string, string> = {};
  for (const stackName of [names.data, names.app]) {
    const result = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    for (const output of result.Stacks?.[0]?.Outputs ?? []) {
      if (output.OutputKey && output.OutputValue) outputs[output.OutputKey] = output.OutputValue;
    }
  }
  client.destroy();
  const need = (key: string) => {
    const value = outputs[key];
    if (!value) throw new Error(`Stack output ${key} not found for stage ${stage}: is the stage deployed?`);
    return value;
  };
  const tableNames = Object.fromEntries(
    (Object.keys(tables) as TableKey[]).map((key) => [key, need(`Table${key[0]!.toUpperCase()}${key.slice(1)}`)]),
  ) as Record<TableKey, string>;
  return {
    name: stage,
    region: config.region,
    local: false,
    userPoolId: need('UserPoolId'),
    userPoolClientId: need('UserPoolClientId'),
    outboundQueueUrl: need('OutboundQueueUrl'),
    outboundDeadLetterQueueUrl: need('OutboundDeadLetterQueueUrl'),
    tableNames,
  };
}

/** `--stage NAME` selects a deployed stage; otherwise the local stack under LOCAL_DATA_DIR. */
export function resolveTarget(
  stage: string | undefined,
  dataDir = process.env.LOCAL_DATA_DIR ?? '.local',
): Promise<Target> {
  return stage ? stageTarget(stage) : Promise.resolve(localTarget(dataDir));
}

/** SDK client options for the target: local endpoints with fake credentials, or the stage's region. */
export function clientOptions(target: Target, endpoint: string | undefined) {
  return target.local && endpoint
    ? { endpoint, region: target.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : { region: target.region };
}

/**
 * The functions' DynamoDB client (lambdas/lib/db.ts) on the target: DynamoDB Local, or the
 * stage's region with the operator's credentials as the SDK finds them (profile, SSO, environment).
 */
export function targetDb(target: Target): Db {
  if (target.local && target.dynamoDbEndpoint) return localDb(target.dynamoDbEndpoint);
  const sdk = new DynamoDBClient({ region: target.region });
  return makeDb({ region: target.region, credentials: () => sdk.config.credentials() });
}
