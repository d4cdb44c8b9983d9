// A stand-in for Lambda's DynamoDB Streams event source mapping: reads the table's
// stream from DynamoDB Local shard by shard (parents before children), hands the
// consumer the DynamoDBStreamEvent Lambda would, and honours partial batch failures
// (ReportBatchItemFailures): a failed batch is retried from the failed record on,
// and after `maxRetries` the rest of the batch is set aside in `failures()`.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  type AttributeValue as SdkAttributeValue,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { z } from 'zod';
import { localCredentials, localRegion } from './dynamodb';
import { localLambdaContext } from './queue';
import { wakeableSleep } from './wakeable-sleep';

type StreamHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse | void | undefined> | DynamoDBBatchResponse | void | undefined;

export interface StreamPollerOptions {
  /** DynamoDB Local's endpoint, e.g. http://127.0.0.1:8000. */
  endpoint: string;
  tableName: string;
  handler: StreamHandler;
  /** Pause between rounds that found nothing. Default 250. */
  pollIntervalMs?: number;
  /** Records per event (GetRecords Limit). Default 100, as Lambda. */
  batchSize?: number;
  /** Retries of a failing batch before its records go to `failures()`. Default 5. */
  maxRetries?: number;
  /** First retry delay, doubled per retry, capped at 30 s. Default 200. */
  retryDelayMs?: number;
  /** Where a shard without checkpoint starts. Default TRIM_HORIZON (every record still in the stream). */
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  /** JSON file of per-shard checkpoints, so that a restart does not replay. */
  checkpointFile?: string;
  /** `awsRegion` of the records. Default the local region. */
  region?: string;
  /** Told about failed batches and stream errors. Default: nothing. */
  onError?: (failure: { shardId?: string; error: string; sequenceNumbers?: string[] }) => void;
}

interface StreamFailure {
  readonly shardId: string;
  /** The records given up on, from the first failed one to the end of the batch. */
  readonly records: DynamoDBRecord[];
  readonly attempts: number;
  /** The error thrown by the last attempt, when the handler threw. */
  readonly error?: string;
  /** ISO time. */
  readonly at: string;
}

export interface StreamPoller {
  /** The stream being read (the table's LatestStreamArn at start). */
  readonly streamArn: string;
  failures(): StreamFailure[];
  /**
   * Resolves after a full round, begun after the call, found no new records and no
   * batch waiting for a retry. Rejects after `timeoutMs` (default 10 s).
   */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

type LambdaImage = Record<string, AttributeValue>;

/** SDK v3 AttributeValue (Uint8Array binaries) to the JSON form Lambda delivers (base64). */
export function toLambdaAttributeValue(value: SdkAttributeValue): AttributeValue {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  // Sets may arrive as arrays or as Set objects; Lambda has arrays.
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: [...value.BS].map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaAttributeValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  throw new Error(`unsupported attribute value: ${JSON.stringify(Object.keys(value))}`);
}

export function toLambdaImage(image: Record<string, SdkAttributeValue>): LambdaImage {
  return Object.fromEntries(Object.entries(image).map(([key, value]) => [key, toLambdaAttributeValue(value)]));
}

/** One SDK stream record as Lambda hands it to a function. */
export function toLambdaRecord(record: _Record, streamArn: string, region: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ...(stream.ApproximateCreationDateTime && {
        ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000),
      }),
      ...(stream.Keys && { Keys: toLambdaImage(stream.Keys) }),
      ...(stream.NewImage && { NewImage: toLambdaImage(stream.NewImage) }),
      ...(stream.OldImage && { OldImage: toLambdaImage(stream.OldImage) }),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    ...(record.userIdentity && { userIdentity: { ...record.userIdentity } }),
    eventSourceARN: streamArn,
  };
}

const checkpointFileSchema = z.object({
  version: z.literal(1),
  streamArn: z.string(),
  shards: z.record(z.string(), z.object({ checkpoint: z.string().optional(), ended: z.boolean().optional() })),
});
type CheckpointFile = z.infer<typeof checkpointFileSchema>;

interface ShardState {
  readonly shardId: string;
  readonly parentShardId?: string;
  /** Where to start when no checkpoint exists. */
  startAt: 'TRIM_HORIZON' | 'LATEST';
  /** Last sequence number handled (or given up on). */
  checkpoint?: string;
  iterator?: string;
  /** GetRecords said the shard is closed and read to its end. */
  closed: boolean;
  /** Fetched records not yet handled successfully. */
  pending: _Record[];
  attempts: number;
  retryAt: number;
  lastError?: string;
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : '');
const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Index of the first record to retry, read as Lambda reads a batch response: nothing
 * or an empty list is a success (-1); a malformed entry or unknown sequence number
 * fails the whole batch (0); otherwise the lowest reported sequence number.
 */
function firstFailure(result: unknown, records: readonly _Record[]): number {
  if (result === undefined || result === null || typeof result !== 'object') return -1;
  const failures = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return -1;
  if (!Array.isArray(failures)) return 0;
  let lowest = -1;
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const index =
      typeof id === 'string' && id !== '' ? records.findIndex((r) => r.dynamodb?.SequenceNumber === id) : -1;
    if (index < 0) return 0;
    lowest = lowest < 0 ? index : Math.min(lowest, index);
  }
  return lowest;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 100;
  const maxRetries = options.maxRetries ?? 5;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const startingPosition = options.startingPosition ?? 'TRIM_HORIZON';
  const region = options.region ?? localRegion;
  const functionName = `${options.tableName}-stream-consumer`;
  const clientConfig = { endpoint: options.endpoint, region: localRegion, credentials: localCredentials };
  const dynamo = new DynamoDBClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);

  const latestStreamArn = async (): Promise<string> => {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
    if (!Table?.LatestStreamArn || !Table.StreamSpecification?.StreamEnabled) {
      throw new Error(`table ${options.tableName} has no stream enabled`);
    }
    return Table.LatestStreamArn;
  };

  let streamArn: string;
  try {
    streamArn = await latestStreamArn();
  } catch (error) {
    dynamo.destroy();
    streams.destroy();
    throw error;
  }

  let saved: CheckpointFile['shards'] = {};
  if (options.checkpointFile && existsSync(options.checkpointFile)) {
    const parsed = checkpointFileSchema.safeParse(JSON.parse(readFileSync(options.checkpointFile, 'utf8')));
    if (!parsed.success) throw new Error(`${options.checkpointFile} is not a stream checkpoint file`);
    // Checkpoints of another stream (the table was recreated) mean nothing here.
    if (parsed.data.streamArn === streamArn) saved = parsed.data.shards;
  }

  let shards = new Map<string, ShardState>();
  const failed: StreamFailure[] = [];
  let firstDiscovery = true;
  let discoverAt = 0;
  let running = true;
  const nap = wakeableSleep();
  let roundsStarted = 0;
  const roundWatchers = new Set<(round: number, idle: boolean) => void>();

  const saveCheckpoints = () => {
    if (!options.checkpointFile) return;
    const file: CheckpointFile = { version: 1, streamArn, shards: {} };
    for (const shard of shards.values()) {
      file.shards[shard.shardId] = {
        ...(shard.checkpoint !== undefined && { checkpoint: shard.checkpoint }),
        ...(shard.closed && shard.pending.length === 0 && { ended: true }),
      };
    }
    mkdirSync(dirname(options.checkpointFile), { recursive: true });
    const temporary = `${options.checkpointFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(file, null, 1));
    renameSync(temporary, options.checkpointFile);
  };

  const discover = async (): Promise<void> => {
    const arn = await latestStreamArn();
    if (arn !== streamArn) {
      // The table was recreated: a new stream, read from its start.
      streamArn = arn;
      shards = new Map();
      saved = {};
    }
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      listed.push(...(page.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);

    const listedIds = new Set(listed.map((s) => s.ShardId));
    for (const id of shards.keys()) if (!listedIds.has(id)) shards.delete(id); // trimmed away
    for (const shard of listed) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      const restored = saved[shard.ShardId];
      const closedAlready = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      shards.set(shard.ShardId, {
        shardId: shard.ShardId,
        ...(shard.ParentShardId && { parentShardId: shard.ParentShardId }),
        // Shards born while running are read from their start, or their records would be lost.
        startAt: firstDiscovery ? startingPosition : 'TRIM_HORIZON',
        ...(restored?.checkpoint !== undefined && { checkpoint: restored.checkpoint }),
        closed:
          restored?.ended === true || (firstDiscovery && startingPosition === 'LATEST' && closedAlready && !restored),
        pending: [],
        attempts: 0,
        retryAt: 0,
      });
    }
    firstDiscovery = false;
    discoverAt = Date.now() + Math.max(1000, pollIntervalMs);
  };

  const iteratorFor = async (shard: ShardState): Promise<string | undefined> => {
    const position: { ShardIteratorType: ShardIteratorType; SequenceNumber?: string } =
      shard.checkpoint !== undefined
        ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.checkpoint }
        : { ShardIteratorType: shard.startAt };
    try {
      const out = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.shardId, ...position }),
      );
      return out.ShardIterator;
    } catch (error) {
      if (errorName(error) !== 'TrimmedDataAccessException') throw error;
      // The checkpoint is older than what the stream keeps: read what is left.
      delete shard.checkpoint;
      shard.startAt = 'TRIM_HORIZON';
      const out = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.shardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      return out.ShardIterator;
    }
  };

  /** Hands the shard's pending records to the handler once. */
  const handlePending = async (shard: ShardState): Promise<void> => {
    const records = shard.pending;
    const event: DynamoDBStreamEvent = { Records: records.map((r) => toLambdaRecord(r, streamArn, region)) };
    let from: number;
    let error: string | undefined;
    try {
      const result: unknown = await options.handler(event, localLambdaContext(functionName, 60_000));
      from = firstFailure(result, records);
    } catch (thrown) {
      from = 0;
      error = describe(thrown);
    }
    if (from < 0) {
      shard.checkpoint = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.checkpoint;
      shard.pending = [];
      shard.attempts = 0;
      delete shard.lastError;
      saveCheckpoints();
      return;
    }
    if (from > 0) shard.checkpoint = records[from - 1]?.dynamodb?.SequenceNumber ?? shard.checkpoint;
    shard.pending = records.slice(from);
    shard.attempts += 1;
    if (error !== undefined) shard.lastError = error;
    const sequenceNumbers = shard.pending.flatMap((r) =>
      r.dynamodb?.SequenceNumber ? [r.dynamodb.SequenceNumber] : [],
    );
    options.onError?.({ shardId: shard.shardId, error: error ?? 'batch item failures reported', sequenceNumbers });
    if (shard.attempts > maxRetries) {
      failed.push({
        shardId: shard.shardId,
        records: shard.pending.map((r) => toLambdaRecord(r, streamArn, region)),
        attempts: shard.attempts,
        ...(shard.lastError !== undefined && { error: shard.lastError }),
        at: new Date().toISOString(),
      });
      shard.checkpoint = sequenceNumbers.at(-1) ?? shard.checkpoint;
      shard.pending = [];
      shard.attempts = 0;
      delete shard.lastError;
    } else {
      shard.retryAt = Date.now() + Math.min(retryDelayMs * 2 ** (shard.attempts - 1), 30_000);
    }
    saveCheckpoints();
  };

  /** One pass over the readable shards; returns whether it handed or still holds records. */
  const round = async (): Promise<boolean> => {
    if (Date.now() >= discoverAt) await discover();
    let busy = false;
    for (const shard of [...shards.values()]) {
      if (!running) break;
      if (shard.closed && shard.pending.length === 0) continue;
      const parent = shard.parentShardId ? shards.get(shard.parentShardId) : undefined;
      if (parent && !(parent.closed && parent.pending.length === 0)) continue; // parents first, as Lambda
      if (shard.pending.length > 0) {
        busy = true;
        if (Date.now() >= shard.retryAt) await handlePending(shard);
        continue;
      }
      shard.iterator ??= await iteratorFor(shard);
      if (shard.iterator === undefined) {
        shard.closed = true;
        continue;
      }
      let out;
      try {
        out = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }));
      } catch (error) {
        // DynamoDB Local answers TrimmedDataAccessException for an iterator taken at
        // TRIM_HORIZON while the new shard was still empty: take a fresh one.
        if (errorName(error) === 'ExpiredIteratorException' || errorName(error) === 'TrimmedDataAccessException') {
          delete shard.iterator;
          busy = true;
          continue;
        }
        if (errorName(error) === 'ResourceNotFoundException') {
          discoverAt = 0;
          continue;
        }
        throw error;
      }
      const next = out.NextShardIterator;
      if (next) shard.iterator = next;
      else {
        delete shard.iterator;
        shard.closed = true;
        discoverAt = 0; // its children may be listed now
      }
      if (out.Records && out.Records.length > 0) {
        busy = true;
        shard.pending = out.Records;
        await handlePending(shard);
      } else if (shard.closed) {
        saveCheckpoints();
      }
    }
    return busy;
  };

  const loop = async (): Promise<void> => {
    while (running) {
      const index = ++roundsStarted;
      let busy: boolean;
      try {
        busy = await round();
      } catch (error) {
        options.onError?.({ error: describe(error) });
        discoverAt = 0;
        busy = false;
      }
      for (const watcher of roundWatchers) watcher(index, !busy);
      const retrying = [...shards.values()].some((s) => s.pending.length > 0);
      if (!running || (busy && !retrying)) continue;
      const nextRetry = Math.min(...[...shards.values()].filter((s) => s.pending.length > 0).map((s) => s.retryAt));
      const delay = Math.max(0, Math.min(pollIntervalMs, nextRetry - Date.now()));
      await nap.sleep(delay);
    }
  };

  const loopDone = loop();

  return {
    get streamArn() {
      return streamArn;
    },
    failures: () => [...failed],
    drain: (timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const after = roundsStarted;
        const finish = (error?: Error) => {
          clearTimeout(timer);
          roundWatchers.delete(watcher);
          if (error) reject(error);
          else resolve();
        };
        const watcher = (index: number, idle: boolean) => {
          if (index > after && idle) finish();
        };
        const timer = setTimeout(
          () => finish(new Error(`stream poller did not drain within ${timeoutMs} ms`)),
          timeoutMs,
        );
        roundWatchers.add(watcher);
        if (!running) finish(new Error('stream poller is stopped'));
      }),
    stop: async () => {
      if (!running) return loopDone;
      running = false;
      nap.wake();
      await loopDone;
      dynamo.destroy();
      streams.destroy();
    },
  };
}
