import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTables, type LocalDynamoDb, localTableNames, startDynamoDbLocal } from './dynamodb';
import {
  startStreamPoller,
  type StreamPoller,
  type StreamPollerOptions,
  toLambdaAttributeValue,
} from './stream-poller';

let db: LocalDynamoDb;
const pollers: StreamPoller[] = [];
let tableCount = 0;

beforeAll(async () => {
  db = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await db?.stop();
});
afterEach(async () => {
  for (const poller of pollers.splice(0)) await poller.stop();
});

/** A fresh set of tables per test, so that each poller reads only its own records. */
async function freshApplicationsTable(): Promise<string> {
  const names = localTableNames(tableCount === 0 ? 't' : `t${tableCount}`);
  tableCount += 1;
  await ensureTables(db.client, names);
  return names.applications;
}

async function poll(
  tableName: string,
  handler: StreamPollerOptions['handler'],
  options: Partial<StreamPollerOptions> = {},
): Promise<StreamPoller> {
  const poller = await startStreamPoller({ endpoint: db.endpoint, tableName, handler, pollIntervalMs: 20, ...options });
  pollers.push(poller);
  return poller;
}

const put = (table: string, pk: string, name: string) =>
  db.client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: pk }, name: { S: name }, n: { N: '1' } } }));

/** Waits until `check` passes, polling briefly; fails with the last assertion error. */
async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('stream poller', () => {
  it('hands INSERT, MODIFY (old and new images) and REMOVE in order, shaped as Lambda does', async () => {
    const table = await freshApplicationsTable();
    const records: DynamoDBRecord[] = [];
    const poller = await poll(table, (event: DynamoDBStreamEvent) => {
      records.push(...event.Records);
    });

    await put(table, 'APP#1', 'Kavin');
    await db.client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: { S: 'APP#1' } },
        UpdateExpression: 'SET #name = :name, tags = :tags, photo = :photo',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: {
          ':name': { S: 'Kavin R' },
          ':tags': { SS: ['a', 'b'] },
          ':photo': { B: new Uint8Array([1, 2, 3]) },
        },
      }),
    );
    await db.client.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: 'APP#1' } } }));

    await eventually(() => expect(records).toHaveLength(3));
    expect(records.map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    const [insert, modify, remove] = records;
    expect(insert).toMatchObject({
      eventSource: 'aws:dynamodb',
      eventSourceARN: poller.streamArn,
      awsRegion: 'ap-south-1',
      dynamodb: {
        Keys: { pk: { S: 'APP#1' } },
        NewImage: { pk: { S: 'APP#1' }, name: { S: 'Kavin' }, n: { N: '1' } },
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    expect(insert?.eventID).toBeTruthy();
    expect(insert?.dynamodb?.OldImage).toBeUndefined();
    expect(typeof insert?.dynamodb?.ApproximateCreationDateTime).toBe('number');
    expect(typeof insert?.dynamodb?.SizeBytes).toBe('number');
    expect(modify?.dynamodb?.OldImage?.name).toEqual({ S: 'Kavin' });
    expect(modify?.dynamodb?.NewImage?.name).toEqual({ S: 'Kavin R' });
    expect(modify?.dynamodb?.NewImage?.photo).toEqual({ B: 'AQID' });
    expect([...(modify?.dynamodb?.NewImage?.tags?.SS ?? [])].sort()).toEqual(['a', 'b']);
    expect(remove?.dynamodb?.OldImage?.name).toEqual({ S: 'Kavin R' });
    expect(remove?.dynamodb?.NewImage).toBeUndefined();

    const sequence = records.map((r) => BigInt(r.dynamodb?.SequenceNumber ?? '0'));
    expect([...sequence].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequence);
    await poller.drain(3000);
    expect(records).toHaveLength(3); // handed once
  });

  it('redelivers from the failed record on after a partial batch failure', async () => {
    const table = await freshApplicationsTable();
    // Written before the poller starts, so that they arrive in one batch.
    for (const pk of ['APP#1', 'APP#2', 'APP#3']) await put(table, pk, pk);
    const batches: string[][] = [];
    const poller = await poll(
      table,
      (event): DynamoDBBatchResponse => {
        batches.push(event.Records.map(pkOf));
        const failing = batches.length === 1 ? event.Records.find((r) => pkOf(r) === 'APP#2') : undefined;
        return { batchItemFailures: failing ? [{ itemIdentifier: failing.dynamodb?.SequenceNumber ?? '' }] : [] };
      },
      { retryDelayMs: 10 },
    );
    await eventually(() => expect(batches).toHaveLength(2));
    await poller.drain(3000);
    expect(batches).toEqual([
      ['APP#1', 'APP#2', 'APP#3'],
      ['APP#2', 'APP#3'],
    ]);
    expect(poller.failures()).toEqual([]);
  });

  it('retries the whole batch when the handler throws', async () => {
    const table = await freshApplicationsTable();
    for (const pk of ['APP#1', 'APP#2']) await put(table, pk, pk);
    const batches: string[][] = [];
    const poller = await poll(
      table,
      (event) => {
        batches.push(event.Records.map(pkOf));
        if (batches.length === 1) throw new Error('rollup write failed');
      },
      { retryDelayMs: 10 },
    );
    await eventually(() => expect(batches).toHaveLength(2));
    await poller.drain(3000);
    expect(batches).toEqual([
      ['APP#1', 'APP#2'],
      ['APP#1', 'APP#2'],
    ]);
  });

  it('sets a batch aside in failures() after the retry limit, and goes on with later records', async () => {
    const table = await freshApplicationsTable();
    for (const pk of ['APP#1', 'APP#2', 'APP#3']) await put(table, pk, pk);
    const batches: string[][] = [];
    const poller = await poll(
      table,
      (event): DynamoDBBatchResponse => {
        batches.push(event.Records.map(pkOf));
        const poison = event.Records.find((r) => pkOf(r) === 'APP#2');
        return { batchItemFailures: poison ? [{ itemIdentifier: poison.dynamodb?.SequenceNumber ?? '' }] : [] };
      },
      { retryDelayMs: 5, maxRetries: 2 },
    );
    await eventually(() => expect(poller.failures()).toHaveLength(1));
    const [failure] = poller.failures();
    expect(failure?.attempts).toBe(3);
    expect(failure?.records.map(pkOf)).toEqual(['APP#2', 'APP#3']);
    expect(batches).toEqual([
      ['APP#1', 'APP#2', 'APP#3'],
      ['APP#2', 'APP#3'],
      ['APP#2', 'APP#3'],
    ]);

    await put(table, 'APP#4', 'APP#4');
    await eventually(() => expect(batches.at(-1)).toEqual(['APP#4']));
  });

  it('resumes after its checkpoint when restarted with a checkpoint file', async () => {
    const table = await freshApplicationsTable();
    const directory = mkdtempSync(join(tmpdir(), 'stream-checkpoint-'));
    try {
      const checkpointFile = join(directory, 'checkpoints.json');
      const seen: string[] = [];
      const handler = (event: DynamoDBStreamEvent) => {
        seen.push(...event.Records.map(pkOf));
      };
      const first = await poll(table, handler, { checkpointFile });
      await put(table, 'APP#1', 'one');
      await eventually(() => expect(seen).toEqual(['APP#1']));
      await first.stop();

      await put(table, 'APP#2', 'two');
      const second = await poll(table, handler, { checkpointFile });
      await eventually(() => expect(seen).toEqual(['APP#1', 'APP#2']));
      await second.drain(3000);
      expect(seen).toEqual(['APP#1', 'APP#2']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses a table without a stream', async () => {
    const names = localTableNames('nostream');
    await ensureTables(db.client, names);
    await expect(poll(names.otps, () => undefined)).rejects.toThrow(/no stream/);
  });
});

describe('toLambdaAttributeValue', () => {
  it('turns binaries into base64 and sets into arrays, deeply', () => {
    expect(
      toLambdaAttributeValue({
        M: {
          b: { B: new Uint8Array([255]) },
          bs: { BS: [new Uint8Array([1]), new Uint8Array([2])] },
          ns: { NS: ['1', '2'] },
          l: { L: [{ NULL: true }, { BOOL: false }] },
        },
      }),
    ).toEqual({
      M: {
        b: { B: '/w==' },
        bs: { BS: ['AQ==', 'Ag=='] },
        ns: { NS: ['1', '2'] },
        l: { L: [{ NULL: true }, { BOOL: false }] },
      },
    });
  });
});

function pkOf(record: DynamoDBRecord): string {
  return record.dynamodb?.Keys?.pk?.S ?? '?';
}
