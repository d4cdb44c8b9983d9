import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, type IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { localLambdaContext } from '../../local/queue';
import { toStoredItem } from '../adapters/applications';
import type { WebhookPayload } from '../adapters/webhook';
import { WebhookError } from '../adapters/webhook';
import { WhatsAppError } from '../adapters/whatsapp';
import type * as Consumer from './outbound-consumer';

// The consumer's own decisions with stand-in ports: which records fail, the retry delay
// it asks the queue for, and that a delivery done once is not done again. The whole
// path (SQS endpoint, DynamoDB Local, sandbox, sink) is in test/integration/outbound.test.ts.
let consumer: typeof Consumer;

beforeAll(async () => {
  // The module wires its real adapters at import (cold start); they are not used here.
  vi.stubEnv('STAGE', 'test');
  vi.stubEnv('APP_MODE', 'local');
  vi.stubEnv('DYNAMODB_ENDPOINT', 'http://127.0.0.1:1');
  vi.stubEnv('TABLE_APPLICATIONS', 'applications');
  vi.stubEnv('TABLE_IDEMPOTENCY', 'idempotency');
  vi.stubEnv('OUTBOUND_QUEUE_URL', 'http://127.0.0.1:1/000000000000/outbound');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  consumer = await import('./outbound-consumer');
});

/** Idempotency records in memory, with DynamoDB's put-if-absent semantics. */
class MemoryPersistence extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();
  protected override async _getRecord(key: string) {
    const record = this.records.get(key);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }
  protected override async _putRecord(record: IdempotencyRecord) {
    const existing = this.records.get(record.idempotencyKey);
    if (existing && !existing.isExpired()) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }
  protected override async _updateRecord(record: IdempotencyRecord) {
    this.records.set(record.idempotencyKey, record);
  }
  protected override async _deleteRecord(record: IdempotencyRecord) {
    this.records.delete(record.idempotencyKey);
  }
}

const application = toStoredItem({
  id: 'app-1',
  phone_number: '919876543210',
  alternate_phone_number: '9000000001',
  name: 'Kavya Raman',
  gender: 'Female',
  date_of_birth: '2001-05-14',
  revenue_district: 'Madurai',
  assembly_constituency: 'Melur',
  education: 'Engineering',
  occupation: 'Student',
  is_already_member: false,
  motivation: 'To serve.',
  submitted_at: '2026-11-21T10:00:00.000Z',
  consent: { terms_version: '2026-11-01', language: 'en', accepted_at: '2026-11-21T10:00:00.000Z' },
});

function setup(options: { welcomeFails?: number; webhookUrl?: string; retryBaseSeconds?: number } = {}) {
  let welcomeFailures = options.welcomeFails ?? 0;
  const welcomes: string[] = [];
  const webhooks: WebhookPayload[] = [];
  const delays: { messageId: string; seconds: number }[] = [];
  const handler = consumer.makeHandler({
    applications: { get: async (id) => (id === 'app-1' ? application : undefined) },
    gateway: async () => ({
      sendWelcome: async (to) => {
        if (welcomeFailures-- > 0) throw new WhatsAppError('provider', { code: 131000, status: 500 });
        welcomes.push(to);
        return `wamid.${welcomes.length}`;
      },
    }),
    webhook: async () => ({
      deliver: async (payload) => {
        if (options.webhookUrl === '') throw new WebhookError('not-configured');
        webhooks.push(payload);
        return { status: 200 };
      },
    }),
    persistenceStore: new MemoryPersistence(),
    visibility: { change: async (record, seconds) => void delays.push({ messageId: record.messageId, seconds }) },
    retryBaseSeconds: options.retryBaseSeconds ?? 60,
    maxReceiveCount: 5,
  });
  const run = (...records: SQSRecord[]) =>
    handler({ Records: records }, localLambdaContext('outbound-consumer', 30_000));
  return { run, welcomes, webhooks, delays };
}

function record(messageId: string, body: unknown, receiveCount = 1): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:ap-south-1:123456789012:membership-prod-outbound',
    awsRegion: 'ap-south-1',
  };
}

describe('retry delay', () => {
  it('doubles from the base with each receive and stops at 12 hours', () => {
    expect([1, 2, 3, 4, 5].map((n) => consumer.retryDelaySeconds(60, n))).toEqual([60, 120, 240, 480, 960]);
    expect(consumer.retryDelaySeconds(60, 11)).toBe(43_200);
    expect(consumer.retryDelaySeconds(60, 10_000)).toBe(43_200);
    expect(consumer.retryDelaySeconds(60, Number.NaN)).toBe(60);
  });

  it('finds the queue URL from the record ARN', () => {
    expect(consumer.queueUrlFromArn('arn:aws:sqs:ap-south-1:123456789012:q')).toBe(
      'https://sqs.ap-south-1.amazonaws.com/123456789012/q',
    );
    expect(consumer.queueUrlFromArn('arn:aws:sqs:local:000000000000:outbound', 'http://127.0.0.1:4566')).toBe(
      'http://127.0.0.1:4566/000000000000/outbound',
    );
  });
});

describe('outbound consumer', () => {
  it('reports only the failed record, and asks the queue to bring it back after base × 2^(receives − 1)', async () => {
    const { run, welcomes, webhooks, delays } = setup({ welcomeFails: 1 });
    const result = await run(
      record('w', { kind: 'welcome', applicationId: 'app-1' }, 3),
      record('h', { kind: 'webhook', applicationId: 'app-1' }),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'w' }] });
    expect(delays).toEqual([{ messageId: 'w', seconds: 240 }]);
    expect(welcomes).toEqual([]);
    expect(webhooks.map((p) => p.application_id)).toEqual(['app-1']);

    // The retry sends the welcome; later duplicates of either send nothing.
    expect(await run(record('w', { kind: 'welcome', applicationId: 'app-1' }, 4))).toEqual({ batchItemFailures: [] });
    await run(
      record('w2', { kind: 'welcome', applicationId: 'app-1' }),
      record('h2', { kind: 'webhook', applicationId: 'app-1' }),
    );
    expect(welcomes).toEqual(['919876543210']);
    expect(webhooks).toHaveLength(1);
  });

  it('leaves the delay to the queue when the base is 0', async () => {
    const { run, delays } = setup({ welcomeFails: 1, retryBaseSeconds: 0 });
    await expect(
      run(record('w', { kind: 'welcome', applicationId: 'app-1' }), record('x', 'not json')),
    ).rejects.toThrow();
    expect(delays).toEqual([]);
  });

  it('fails malformed messages and unknown kinds, so that they end in the dead-letter queue', async () => {
    const { run, welcomes } = setup();
    const result = await run(
      record('bad', '{"kind":'),
      record('sms', { kind: 'sms', applicationId: 'app-1' }),
      record('no-id', { kind: 'welcome' }),
      record('ok', { kind: 'welcome', applicationId: 'app-1' }),
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['bad', 'sms', 'no-id']);
    expect(welcomes).toHaveLength(1);
  });

  it('fails a webhook while no URL is configured, never dropping it', async () => {
    const { run } = setup({ webhookUrl: '' });
    const event = record('h', { kind: 'webhook', applicationId: 'app-1' });
    // Every record failed: Powertools throws, so Lambda retries the batch.
    await expect(run(event)).rejects.toThrow(/All records failed/);
  });

  it('sends nothing for an application that no longer exists, and succeeds', async () => {
    const { run, welcomes, webhooks } = setup();
    const result = await run(
      record('w', { kind: 'welcome', applicationId: 'erased' }),
      record('h', { kind: 'webhook', applicationId: 'erased' }),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(welcomes).toEqual([]);
    expect(webhooks).toEqual([]);
  });
});

describe('outbound metrics', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The embedded-metric lines a run writes: metric name and dimensions of each. */
  async function emitted(run: () => Promise<unknown>): Promise<string[]> {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    await run().catch(() => undefined);
    vi.restoreAllMocks();
    return lines
      .map((l) => JSON.parse(l) as { _aws?: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }; kind?: string })
      .filter((l) => l._aws)
      .map((l) => `${l._aws!.CloudWatchMetrics[0]!.Metrics[0]!.Name}${l.kind ? ` kind=${l.kind}` : ''}`);
  }

  it('counts a failure before the last receive as retried, and one on the last receive as dead-lettered', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const { run } = setup({ welcomeFails: 2 });
    expect(await emitted(() => run(record('w', { kind: 'welcome', applicationId: 'app-1' }, 4)))).toEqual([
      'OutboundFailed',
      'OutboundFailed kind=welcome',
      'OutboundRetried',
      'OutboundRetried kind=welcome',
    ]);
    expect(await emitted(() => run(record('w', { kind: 'welcome', applicationId: 'app-1' }, 5)))).toEqual([
      'OutboundFailed',
      'OutboundFailed kind=welcome',
      'OutboundDeadLettered',
      'OutboundDeadLettered kind=welcome',
    ]);
    expect(await emitted(() => run(record('w', { kind: 'welcome', applicationId: 'app-1' }, 6)))).toEqual([
      'OutboundDelivered',
      'OutboundDelivered kind=welcome',
    ]);
  });
});
