// A stand-in for SQS plus Lambda's event source mapping: messages are handed to the
// consumer as the SQSEvent Lambda builds, partial batch failures are honoured, failed
// messages come back after a growing visibility timeout, and a message that keeps
// failing moves to a dead-letter list with its body intact. Optionally persisted to a
// JSON file so that a restart of the local stack loses nothing.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { localRegion } from './dynamodb';
import { wakeableSleep } from './wakeable-sleep';

/** What the Lambda code sends to the outbound queue through; SQS in AWS, this queue locally. */
interface QueueSender {
  /** Resolves with the message id. */
  send(body: string): Promise<string>;
}

export type LocalQueueHandler = (
  event: SQSEvent,
  context: Context,
) => Promise<SQSBatchResponse | void | undefined> | SQSBatchResponse | void | undefined;

export interface LocalQueueOptions {
  name: string;
  /** First retry delay; doubles with each receive (SQS visibility timeout + backoff). */
  visibilityTimeoutMs: number;
  /** Receives after which a failing message moves to the dead letters (the redrive policy). */
  maxReceiveCount: number;
  handler: LocalQueueHandler;
  /** How often an idle queue looks for messages whose visibility timeout ran out. Default 250. */
  pollIntervalMs?: number;
  /** Records per event. Default 10. */
  batchSize?: number;
  /** Cap of the backoff. Default 15 minutes (or the visibility timeout if longer). */
  maxBackoffMs?: number;
  /** JSON file holding messages and dead letters across restarts. */
  persistFile?: string;
  /** Told about each failed delivery (thrown error or reported failures). Default: nothing. */
  onError?: (failure: { messageIds: string[]; error?: string }) => void;
  /** The consumer's timeout, as its Lambda context reports it. Default: the visibility timeout. */
  functionTimeoutMs?: number;
}

/** What ChangeMessageVisibility found: done, an unknown or stale receipt handle, or a message not in flight. */
type VisibilityChange = 'changed' | 'invalid-receipt' | 'not-in-flight';

interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Epoch ms of the original send. */
  readonly sentAt: number;
  readonly receiveCount: number;
  /** Epoch ms of the move to the dead letters. */
  readonly deadAt: number;
  /** The error thrown by the last failed delivery, when the handler threw. */
  readonly lastError?: string;
}

interface QueueStats {
  /** Ready to be handed to the consumer. */
  readonly visible: number;
  /** Being handled, or waiting out a visibility timeout after a failure (SQS's "not visible"). */
  readonly inFlight: number;
  readonly dead: number;
  /** Handled successfully (deleted) since the queue's state was created. */
  readonly delivered: number;
}

export interface LocalQueue extends QueueSender {
  readonly name: string;
  readonly arn: string;
  /** SendMessage: `attributes` become String message attributes; `delayMs` is SQS's DelaySeconds. */
  send(body: string, attributes?: Readonly<Record<string, string>>, delayMs?: number): Promise<string>;
  deadLetters(): DeadLetter[];
  /**
   * ChangeMessageVisibility: the message received with `receiptHandle` (its latest
   * receipt) becomes visible `timeoutMs` from now. Called while the consumer handles
   * it, this replaces the queue's own backoff should the message fail.
   */
  changeVisibility(receiptHandle: string, timeoutMs: number): VisibilityChange;
  /** Moves dead letters (all, or those named) back into the queue; returns how many moved. */
  redrive(messageIds?: readonly string[]): number;
  stats(): QueueStats;
  /** Receives after a message's first (ApproximateReceiveCount above 1) since this process started. */
  redeliveries(): number;
  /** Resolves when nothing is visible or in flight; rejects after `timeoutMs` (default 10 s). */
  drain(timeoutMs?: number): Promise<void>;
  /** Starts the delivery loop (like enabling the event source mapping). */
  start(): void;
  /** Stops the loop after the batch being handled, and writes the state file. */
  stop(): Promise<void>;
  /** Writes the state file now (normally debounced). */
  flush(): void;
}

const storedMessageSchema = z.object({
  messageId: z.string(),
  body: z.string(),
  attributes: z.record(z.string(), z.string()),
  sentAt: z.number(),
  receiveCount: z.number().int().min(0),
  firstReceiveAt: z.number().optional(),
  visibleAt: z.number(),
  lastError: z.string().optional(),
});
type StoredMessage = z.infer<typeof storedMessageSchema>;

const deadLetterSchema = z.object({
  messageId: z.string(),
  body: z.string(),
  attributes: z.record(z.string(), z.string()),
  sentAt: z.number(),
  receiveCount: z.number().int(),
  deadAt: z.number(),
  lastError: z.string().optional(),
});

const queueFileSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  messages: z.array(storedMessageSchema),
  deadLetters: z.array(deadLetterSchema),
  delivered: z.number().int().min(0),
});
type QueueFile = z.infer<typeof queueFileSchema>;

/** SQS's limit on a message (body plus attributes). */
const maxMessageBytes = 262_144;

/** A Lambda context as the runtime passes it, with a running remaining-time clock. */
export function localLambdaContext(functionName: string, timeoutMs: number): Context {
  const started = Date.now();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${localRegion}:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, timeoutMs - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** SQS's MD5 of message attributes: length-prefixed name, type, transport byte and value, sorted by name. */
export function md5OfAttributes(attributes: Readonly<Record<string, string>>): string {
  const hash = createHash('md5');
  const field = (value: string) => {
    const bytes = Buffer.from(value, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length);
    hash.update(bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    field(name);
    field('String');
    hash.update(Buffer.from([1]));
    field(attributes[name] ?? '');
  }
  return hash.digest('hex');
}

/**
 * Which messages of a batch failed, read as Lambda reads a batch response: nothing or an
 * empty list is a success; a malformed list or an unknown id fails the whole batch.
 */
function failedIds(result: unknown, batch: readonly StoredMessage[]): Set<string> {
  const all = new Set(batch.map((m) => m.messageId));
  if (result === undefined || result === null || typeof result !== 'object') return new Set();
  const failures = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !all.has(id)) return all;
    failed.add(id);
  }
  return failed;
}

export function createLocalQueue(options: LocalQueueOptions): LocalQueue {
  const { name, visibilityTimeoutMs, maxReceiveCount, handler } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 10;
  const maxBackoffMs = options.maxBackoffMs ?? Math.max(visibilityTimeoutMs, 15 * 60_000);
  const arn = `arn:aws:sqs:local:000000000000:${name}`;
  const functionName = `${name}-consumer`;

  let state: QueueFile = { version: 1, name, messages: [], deadLetters: [], delivered: 0 };
  let redeliveries = 0;
  if (options.persistFile && existsSync(options.persistFile)) {
    const parsed = queueFileSchema.safeParse(JSON.parse(readFileSync(options.persistFile, 'utf8')));
    if (!parsed.success) {
      throw new Error(
        `queue ${name}: ${options.persistFile} is not a queue state file: ${z.prettifyError(parsed.error)}`,
      );
    }
    state = { ...parsed.data, name };
  }

  const handling = new Set<string>();
  // Receipt handles of the latest receive of each message, and visibility changes asked
  // for while a message was being handled (they win over the queue's own backoff).
  const receipts = new Map<string, string>();
  const latestReceipt = new Map<string, string>();
  const visibilityOverrides = new Map<string, number>();
  const forgetReceipt = (messageId: string) => {
    const handle = latestReceipt.get(messageId);
    if (handle !== undefined) receipts.delete(handle);
    latestReceipt.delete(messageId);
  };
  let running = false;
  let loopDone: Promise<void> | undefined;
  const nap = wakeableSleep();
  let persistTimer: NodeJS.Timeout | undefined;
  const watchers = new Set<() => void>();

  const flush = () => {
    if (persistTimer) clearTimeout(persistTimer);
    persistTimer = undefined;
    if (!options.persistFile) return;
    mkdirSync(dirname(options.persistFile), { recursive: true });
    const temporary = `${options.persistFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state, null, 1));
    renameSync(temporary, options.persistFile);
  };

  const changed = () => {
    if (options.persistFile) persistTimer ??= setTimeout(flush, 20);
    for (const watcher of watchers) watcher();
    nap.wake();
  };

  const isVisible = (m: StoredMessage, now: number) => !handling.has(m.messageId) && m.visibleAt <= now;

  const stats = (): QueueStats => {
    const now = Date.now();
    const visible = state.messages.filter((m) => isVisible(m, now)).length;
    return {
      visible,
      inFlight: state.messages.length - visible,
      dead: state.deadLetters.length,
      delivered: state.delivered,
    };
  };

  const toRecord = (m: StoredMessage): SQSRecord => {
    const hasAttributes = Object.keys(m.attributes).length > 0;
    const messageAttributes: SQSMessageAttributes = {};
    for (const [key, value] of Object.entries(m.attributes)) {
      messageAttributes[key] = { stringValue: value, stringListValues: [], binaryListValues: [], dataType: 'String' };
    }
    const receiptHandle = randomBytes(48).toString('base64');
    forgetReceipt(m.messageId);
    receipts.set(receiptHandle, m.messageId);
    latestReceipt.set(m.messageId, receiptHandle);
    return {
      messageId: m.messageId,
      receiptHandle,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        SenderId: 'AROALOCAL00000000000:local',
        ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt ?? m.sentAt),
      },
      messageAttributes,
      md5OfBody: createHash('md5').update(m.body, 'utf8').digest('hex'),
      ...(hasAttributes && { md5OfMessageAttributes: md5OfAttributes(m.attributes) }),
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: localRegion,
    };
  };

  const deliver = async (batch: StoredMessage[]): Promise<void> => {
    const received = Date.now();
    for (const m of batch) {
      m.receiveCount += 1;
      if (m.receiveCount > 1) redeliveries += 1;
      m.firstReceiveAt ??= received;
      handling.add(m.messageId);
    }
    const event: SQSEvent = { Records: batch.map(toRecord) };
    let failed: Set<string>;
    let error: string | undefined;
    try {
      const result: unknown = await handler(
        event,
        localLambdaContext(functionName, options.functionTimeoutMs ?? visibilityTimeoutMs),
      );
      failed = failedIds(result, batch);
    } catch (thrown) {
      failed = new Set(batch.map((m) => m.messageId));
      error = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
    }
    const now = Date.now();
    for (const m of batch) {
      handling.delete(m.messageId);
      const override = visibilityOverrides.get(m.messageId);
      visibilityOverrides.delete(m.messageId);
      if (!failed.has(m.messageId)) {
        state.messages = state.messages.filter((x) => x !== m);
        state.delivered += 1;
        forgetReceipt(m.messageId);
        continue;
      }
      if (error !== undefined) m.lastError = error;
      if (m.receiveCount >= maxReceiveCount) {
        state.messages = state.messages.filter((x) => x !== m);
        forgetReceipt(m.messageId);
        state.deadLetters.push({
          messageId: m.messageId,
          body: m.body,
          attributes: m.attributes,
          sentAt: m.sentAt,
          receiveCount: m.receiveCount,
          deadAt: now,
          ...(m.lastError !== undefined && { lastError: m.lastError }),
        });
      } else {
        m.visibleAt = override ?? now + Math.min(visibilityTimeoutMs * 2 ** (m.receiveCount - 1), maxBackoffMs);
      }
    }
    if (failed.size > 0) options.onError?.({ messageIds: [...failed], ...(error !== undefined && { error }) });
    changed();
  };

  const loop = async (): Promise<void> => {
    while (running) {
      const now = Date.now();
      const batch = state.messages
        .filter((m) => isVisible(m, now))
        .sort((a, b) => a.visibleAt - b.visibleAt || a.sentAt - b.sentAt)
        .slice(0, batchSize);
      if (batch.length > 0) {
        await deliver(batch);
        continue;
      }
      const waiting = state.messages.filter((m) => !handling.has(m.messageId)).map((m) => m.visibleAt - now);
      const delay = Math.max(0, Math.min(pollIntervalMs, ...waiting));
      await nap.sleep(delay);
    }
  };

  return {
    name,
    arn,
    send: (body, attributes = {}, delayMs = 0) => {
      if (body.length === 0) return Promise.reject(new Error('MissingParameter: the message body must not be empty'));
      const size =
        Buffer.byteLength(body) +
        Object.entries(attributes).reduce((n, [k, v]) => n + Buffer.byteLength(k) + 6 + Buffer.byteLength(v), 0);
      if (size > maxMessageBytes) {
        return Promise.reject(
          new Error(`InvalidParameterValue: message must be shorter than ${maxMessageBytes} bytes`),
        );
      }
      const now = Date.now();
      const messageId = randomUUID();
      state.messages.push({
        messageId,
        body,
        attributes: { ...attributes },
        sentAt: now,
        receiveCount: 0,
        visibleAt: now + Math.max(0, delayMs),
      });
      changed();
      return Promise.resolve(messageId);
    },
    changeVisibility: (receiptHandle, timeoutMs) => {
      const messageId = receipts.get(receiptHandle);
      const m = messageId === undefined ? undefined : state.messages.find((x) => x.messageId === messageId);
      if (!m) return 'invalid-receipt';
      const now = Date.now();
      if (handling.has(m.messageId)) {
        visibilityOverrides.set(m.messageId, now + timeoutMs);
        return 'changed';
      }
      if (m.visibleAt <= now) return 'not-in-flight';
      m.visibleAt = now + timeoutMs;
      changed();
      return 'changed';
    },
    deadLetters: () => state.deadLetters.map((d) => ({ ...d })),
    redrive: (messageIds) => {
      const wanted = messageIds ? new Set(messageIds) : undefined;
      const moving = state.deadLetters.filter((d) => !wanted || wanted.has(d.messageId));
      if (moving.length === 0) return 0;
      state.deadLetters = state.deadLetters.filter((d) => !moving.includes(d));
      const now = Date.now();
      for (const d of moving) {
        state.messages.push({
          messageId: d.messageId,
          body: d.body,
          attributes: { ...d.attributes },
          sentAt: now,
          receiveCount: 0,
          visibleAt: now,
        });
      }
      changed();
      return moving.length;
    },
    stats,
    redeliveries: () => redeliveries,
    drain: async (timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (state.messages.length > 0) {
        if (!running) throw new Error(`queue ${name} is not started; ${JSON.stringify(stats())}`);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`queue ${name} did not drain within ${timeoutMs} ms: ${JSON.stringify(stats())}`);
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            watchers.delete(done);
            resolve();
          };
          const timer = setTimeout(done, left);
          watchers.add(done);
        });
      }
    },
    start: () => {
      if (running) return;
      running = true;
      loopDone = loop();
    },
    stop: async () => {
      running = false;
      nap.wake();
      await loopDone;
      loopDone = undefined;
      for (const watcher of watchers) watcher();
      flush();
    },
    flush,
  };
}
