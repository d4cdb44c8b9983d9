import { type Db, PutCommand } from '../../lambdas/lib/db';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { inject } from 'vitest';
import { noSearchIndex } from './no-search-index';
import * as v from 'valibot';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { localLambdaContext } from '../../local/queue';
import { startStreamPoller, type StreamPoller } from '../../local/stream-poller';
import { type AgeingMarker, makeAgeingMarker } from '../../lambdas/adapters/rollups-ageing-marker';
import { makeRollupsGenerations, type RollupsGenerations } from '../../lambdas/adapters/rollups-generations';
import { makeRollupsReader, type RollupsReader } from '../../lambdas/adapters/rollups-reader';
import { makeRollupsWriter, type RollupsWriter } from '../../lambdas/adapters/rollups-writer';
import { meterCapacity } from '../../lambdas/lib/capacity-meter';
import { reportSummarySchema, type ReportSummary } from '../../rules/report';
import { useLocalFunctionEnv } from './env';
import { dumpGeneration, type GenerationDump } from './rollups-dump';
import { staffEvent } from './rollups';

// The rollups' handlers built from their dependencies with a clock the test moves,
// against fresh tables in the integration tier's DynamoDB Local, with the local
// stream poller feeding the consumer.

/** A fresh context per invocation, as Lambda gives: middy times out from its remaining time. */
const context = (): Context => localLambdaContext('rollups-test', 60_000);

/** An instant given as IST wall-clock time, e.g. ist('2026-03-11T00:00:00.000'). */
export const ist = (local: string) => new Date(`${local}+05:30`);

const toAttribute = (value: unknown): AttributeValue =>
  typeof value === 'string'
    ? { S: value }
    : typeof value === 'number'
      ? { N: String(value) }
      : typeof value === 'boolean'
        ? { BOOL: value }
        : { NULL: true };

/** A stream record of the applications table, as Lambda delivers it. */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  item: Record<string, unknown>,
  sequenceNumber: string,
  options: { withoutNewImage?: boolean } = {},
): DynamoDBRecord {
  const image = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toAttribute(v)]));
  return {
    eventID: `e${sequenceNumber}`,
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: { pk: { S: String(item.pk) } },
      ...(eventName !== 'REMOVE' && !options.withoutNewImage && { NewImage: image }),
      ...(eventName !== 'INSERT' && { OldImage: image }),
      SequenceNumber: sequenceNumber,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** Every part of the rollups on one table, as tests reach into all of them. */
type RollupsParts = RollupsReader &
  RollupsWriter &
  AgeingMarker &
  RollupsGenerations & { dumpGeneration(gen: string): Promise<GenerationDump> };

export interface RollupsHarness {
  readonly names: ReturnType<typeof localTableNames>;
  readonly db: Db;
  readonly store: RollupsParts;
  readonly poller: StreamPoller;
  clock: Date;
  put(item: Record<string, unknown>): Promise<void>;
  consume(records: DynamoDBRecord[]): Promise<DynamoDBBatchResponse>;
  report(query?: Record<string, string>): Promise<ReportSummary>;
  age(): Promise<{ agedThrough: string; checked: number; moved: number }>;
  /** Counter sums of the current generation for a status and day range, by age bucket. */
  storedAges(from: string, to: string): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function rollupsHarness(prefix: string, clock: Date): Promise<RollupsHarness> {
  const endpoint = inject('dynamoDbEndpoint');
  const names = localTableNames(`${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`);
  const client = localDynamoClient(endpoint);
  await ensureTables(client, names);
  useLocalFunctionEnv({
    TABLE_APPLICATIONS: names.applications,
    TABLE_ROLLUPS: names.rollups,
    TABLE_SEARCH: names.search,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const db = localDb(endpoint);
  const store: RollupsParts = {
    ...makeRollupsReader(db, names.rollups),
    ...makeRollupsWriter(db, names.rollups),
    ...makeAgeingMarker(db, names.rollups),
    ...makeRollupsGenerations(db, names.rollups),
    dumpGeneration: (gen) => dumpGeneration(db, names.rollups, gen),
  };
  const stream = await import('../../lambdas/handlers/applications-stream');
  const ageing = await import('../../lambdas/handlers/rollups-ageing');
  const summary = await import('../../lambdas/handlers/reports-summary');
  const { ageBuckets, AGE_OFFSET } = await import('../../rules/report');

  const harness = {
    names,
    db,
    store,
    clock,
  } as RollupsHarness;
  const now = () => harness.clock;
  const consumer = stream.makeHandler({ rollups: store, search: noSearchIndex, clock: now });
  const job = ageing.makeHandler({ rollups: store, clock: now, fenceMs: 0 });
  const reports = summary.makeHandler({ rollups: store, clock: now, meter: meterCapacity(db) });
  const poller = await startStreamPoller({
    endpoint,
    tableName: names.applications,
    handler: (e) => consumer(e),
    pollIntervalMs: 50,
  });

  return Object.assign(harness, {
    poller,
    async put(item: Record<string, unknown>) {
      await db.send(new PutCommand({ TableName: names.applications, Item: item }));
    },
    consume: (records: DynamoDBRecord[]) => consumer({ Records: records } satisfies DynamoDBStreamEvent),
    async report(query: Record<string, string> = {}) {
      const response = await reports(staffEvent(query), context());
      if (response.statusCode !== 200) throw new Error(`report ${response.statusCode}: ${response.body}`);
      return v.parse(reportSummarySchema, JSON.parse(response.body ?? ''));
    },
    age: () => job(),
    async storedAges(from: string, to: string) {
      const meta = await store.getMeta();
      const days = meta
        ? await store.readDays(meta.current, ['pending', 'under_review', 'approved', 'rejected'], from, to)
        : [];
      const sums = Object.fromEntries(ageBuckets.map((b) => [b, 0]));
      for (const day of days) {
        for (const cell of day.cells) ageBuckets.forEach((b, i) => (sums[b]! += cell[AGE_OFFSET + i] ?? 0));
      }
      return sums;
    },
    async stop() {
      await poller.stop();
      client.destroy();
    },
  });
}
