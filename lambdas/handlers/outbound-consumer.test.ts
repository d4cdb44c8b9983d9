import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryPersistence } from '../../test/support/memory-idempotency';
import { localLambdaContext } from '../../local/queue';
import type { DecisionNoticeStore, SentNotice } from '../adapters/decision-notices';
import { toStoredItem } from '../adapters/application-items';
import { queueUrlFromArn, retryDelaySeconds, throttleDelaySeconds } from '../adapters/outbound-queue';
import type { WebhookDeletedEvent, WebhookPayload } from '../adapters/webhook';
import { WebhookError } from '../adapters/webhook';
import { WhatsAppError } from '../adapters/whatsapp';
import { decisionChannels } from '../lib/decision-notice-sender';
import { makePacer } from '../lib/pacer';
import type * as Consumer from './outbound-consumer';

// The consumer's own decisions with stand-in ports: which records fail, the retry delay
// it asks the queue for, and that a delivery done once is not done again. The whole
// path (SQS endpoint, DynamoDB Local, sandbox, sink) is in test/integration/outbound.test.ts.
let consumer: typeof Consumer;

beforeAll(async () => {
  // Importing the module wires nothing (lambdas/lib/wiring.ts): only its logs are silenced.
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  consumer = await import('./outbound-consumer');
});

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
  const webhooks: (WebhookPayload | WebhookDeletedEvent)[] = [];
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
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(60, n))).toEqual([60, 120, 240, 480, 960]);
    expect(retryDelaySeconds(60, 11)).toBe(43_200);
    expect(retryDelaySeconds(60, 10_000)).toBe(43_200);
    expect(retryDelaySeconds(60, Number.NaN)).toBe(60);
  });

  it('finds the queue URL from the record ARN', () => {
    expect(queueUrlFromArn('arn:aws:sqs:ap-south-1:123456789012:q')).toBe(
      'https://sqs.ap-south-1.amazonaws.com/123456789012/q',
    );
    expect(queueUrlFromArn('arn:aws:sqs:local:000000000000:outbound', 'http://127.0.0.1:4566')).toBe(
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

  it("tells the webhook of an erasure by the application's id only, once", async () => {
    const { run, webhooks } = setup();
    const deleted = { kind: 'deleted', applicationId: 'erased' };
    expect(await run(record('d1', deleted))).toEqual({ batchItemFailures: [] });
    // Delivered again (a stream batch retried): idempotent.
    expect(await run(record('d2', deleted))).toEqual({ batchItemFailures: [] });
    expect(webhooks).toEqual([{ event: 'deleted', application_id: 'erased' }]);
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
      .map(
        (l) =>
          JSON.parse(l) as {
            _aws?: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] };
            kind?: string;
            channel?: string;
          },
      )
      .filter((l) => l._aws)
      .map(
        (l) =>
          `${l._aws!.CloudWatchMetrics[0]!.Metrics[0]!.Name}${l.kind ? ` kind=${l.kind}` : ''}${l.channel ? ` channel=${l.channel}` : ''}`,
      );
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
      'MessageAccepted',
      'MessageAccepted channel=whatsapp',
      'OutboundDelivered',
      'OutboundDelivered kind=welcome',
    ]);
  });
});

/** Decision-notice claims in memory, with the conditional write's semantics. */
function memoryNotices(): DecisionNoticeStore & {
  claims: Map<string, { token: string; sent?: SentNotice; leaseUntil: number }>;
} {
  const claims = new Map<string, { token: string; sent?: SentNotice; leaseUntil: number }>();
  const key = (id: string, d: string) => `${id}#${d}`;
  return {
    claims,
    async claim(id, decision, now, lease) {
      const existing = claims.get(key(id, decision));
      if (existing?.sent) return { kind: 'sent', notice: existing.sent };
      if (existing && existing.leaseUntil > now.getTime()) return { kind: 'in-progress', retryAfterSeconds: 5 };
      const token = `t${claims.size}-${Math.random()}`;
      claims.set(key(id, decision), { token, leaseUntil: now.getTime() + lease * 1000 });
      return { kind: 'claimed', token };
    },
    async complete(id, decision, token, sent) {
      const c = claims.get(key(id, decision));
      if (c?.token !== token) return false;
      c.sent = { decision, ...sent };
      return true;
    },
    async release(id, decision, token) {
      if (claims.get(key(id, decision))?.token === token && !claims.get(key(id, decision))?.sent)
        claims.delete(key(id, decision));
    },
    async sentFor(id) {
      return (['approved', 'rejected'] as const).flatMap((d) => claims.get(key(id, d))?.sent ?? []);
    },
  };
}

const changedAt = '2026-11-24T08:32:00.000Z';
const approvedApplication = {
  ...application,
  consent: { ...application.consent, language: 'ta' as const },
  application_status: 'approved' as const,
  status_changed_at: changedAt,
};
const decision = { kind: 'decision', applicationId: 'app-1', decision: 'approved', changedAt };
const smsTemplate = (text: string) => ({ templateId: '1107000000000000001', text });

function decisionSetup(
  options: {
    channels?: 'whatsapp' | 'sms' | 'whatsapp-then-sms';
    now?: string;
    whatsappFails?: (() => Error)[];
    smsFails?: (() => Error)[];
    stored?: Record<string, unknown>;
    maxAttempts?: number;
  } = {},
) {
  const whatsappFails = [...(options.whatsappFails ?? [])];
  const smsFails = [...(options.smsFails ?? [])];
  const whatsapp: { to: string; name: string; language: string; parameters: readonly string[] }[] = [];
  const sms: { to: string; templateId: string; variables: readonly string[] }[] = [];
  const requeued: { body: unknown; delaySeconds?: number; throttleAttempt?: number }[] = [];
  const accepted: { channel: string; messageId: string; purpose: string }[] = [];
  const delays: number[] = [];
  const notices = memoryNotices();
  let now = new Date(options.now ?? '2026-11-24T08:40:00.000Z');
  const handler = consumer.makeHandler({
    applications: { get: async (id) => (id === 'app-1' ? (options.stored ?? approvedApplication) : undefined) },
    gateway: async () => ({
      sendWelcome: async () => {
        const fail = whatsappFails.shift();
        if (fail) throw fail();
        return 'wamid.welcome';
      },
    }),
    webhook: async () => ({ deliver: async () => ({ status: 200 }) }),
    persistenceStore: new MemoryPersistence(),
    visibility: { change: async (_record, seconds) => void delays.push(seconds) },
    retryBaseSeconds: 60,
    maxReceiveCount: 5,
    decisions: {
      settings: {
        channels: options.channels ?? 'whatsapp-then-sms',
        quietSeconds: 300,
        whatsappTemplates: {
          approved: { name: 'decision_approved', languages: { en: 'en', ta: 'ta' } },
          rejected: { name: 'decision_rejected', languages: { en: 'en', ta: 'ta' } },
        },
        smsTemplates: {
          otp: { en: smsTemplate('Your code is {#var#}') },
          approved: { en: smsTemplate('Dear {#var#}, approved.'), ta: smsTemplate('அன்புள்ள {#var#}, ஏற்கப்பட்டது.') },
          rejected: { en: smsTemplate('Not approved.') },
        },
      },
      whatsapp: async () => ({
        sendTemplate: async (to, name, language, parameters) => {
          const fail = whatsappFails.shift();
          if (fail) throw fail();
          whatsapp.push({ to, name, language, parameters });
          return `wamid.${whatsapp.length}`;
        },
      }),
      sms: async () => ({
        send: async (to, template, variables) => {
          const fail = smsFails.shift();
          if (fail) throw fail();
          sms.push({ to, templateId: template.templateId, variables });
          return `sms-${sms.length}`;
        },
      }),
      notices,
    },
    deliveries: { recordAccepted: async (ref, meta) => void accepted.push({ ...ref, purpose: meta.purpose }) },
    queue: {
      send: async (messages, opts) => {
        for (const body of messages) requeued.push({ body, ...opts });
      },
    },
    throttle: { baseSeconds: 4, maxAttempts: options.maxAttempts ?? 10, random: () => 1 },
    clock: () => now,
  });
  const run = (...records: SQSRecord[]) =>
    handler({ Records: records }, localLambdaContext('outbound-consumer', 30_000));
  return { run, whatsapp, sms, requeued, accepted, delays, notices, setNow: (iso: string) => (now = new Date(iso)) };
}

const throttled = () => new WhatsAppError('provider', { code: 130429, status: 400 });
const undeliverable = () => new WhatsAppError('provider', { code: 131026, status: 400 });

function withAttempt(r: SQSRecord, attempt: number): SQSRecord {
  return {
    ...r,
    messageAttributes: {
      throttleAttempt: { stringValue: String(attempt), stringListValues: [], binaryListValues: [], dataType: 'String' },
    },
  };
}

describe('rate limits', () => {
  it('puts a throttled welcome back with a growing delay, reports it processed, and sends it from the copy', async () => {
    const { run, requeued, delays, accepted } = decisionSetup({ whatsappFails: [throttled, throttled] });
    const welcome = { kind: 'welcome', applicationId: 'app-1' };
    // Processed: no batch failure, so the queue deletes it without counting a failed receive.
    expect(await run(record('w', welcome, 1))).toEqual({ batchItemFailures: [] });
    expect(requeued).toEqual([{ body: welcome, delaySeconds: 4, throttleAttempt: 1 }]);
    expect(delays).toEqual([]);

    // The copy comes back carrying its attempt; throttled again: twice the delay.
    expect(await run(withAttempt(record('w-copy', welcome, 1), 1))).toEqual({ batchItemFailures: [] });
    expect(requeued[1]).toEqual({ body: welcome, delaySeconds: 8, throttleAttempt: 2 });

    // Idempotency recorded nothing as done: the next copy sends.
    await run(withAttempt(record('w-copy-2', welcome, 1), 2));
    expect(accepted).toEqual([{ channel: 'whatsapp', messageId: 'wamid.welcome', purpose: 'welcome' }]);
    expect(requeued).toHaveLength(2);
  });

  it('keeps the delay within SQS’s 15 minutes and counts a refusal past the cap as an ordinary failure', async () => {
    expect(throttleDelaySeconds(4, 30, () => 1)).toBe(900);
    expect(throttleDelaySeconds(4, 1, () => 0)).toBe(2);
    const { run, requeued, delays } = decisionSetup({ whatsappFails: [throttled], maxAttempts: 3 });
    const result = await run(
      withAttempt(record('w', { kind: 'welcome', applicationId: 'app-1' }, 2), 3),
      record('h', { kind: 'webhook', applicationId: 'app-1' }),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'w' }] });
    expect(requeued).toEqual([]);
    expect(delays).toEqual([120]);
  });

  it('puts a decision back when SMS is throttled, releasing its claim', async () => {
    const { SmsError } = await import('../adapters/sms');
    const { run, requeued, notices, sms } = decisionSetup({
      channels: 'sms',
      smsFails: [() => new SmsError('throttled', 'ThrottlingException')],
    });
    expect(await run(record('d', decision))).toEqual({ batchItemFailures: [] });
    expect(requeued).toEqual([{ body: decision, delaySeconds: 4, throttleAttempt: 1 }]);
    expect(notices.claims.size).toBe(0);
    await run(withAttempt(record('d2', decision), 1));
    expect(sms).toEqual([{ to: '919876543210', templateId: '1107000000000000001', variables: ['Kavya Raman'] }]);
  });

  it('keeps each channel under its rate with the pacer', async () => {
    let clock = 0;
    const waits: number[] = [];
    const pacer = makePacer(10, { burst: 2, now: () => clock, sleep: async (ms) => void waits.push(ms) });
    await Promise.all([pacer.take(), pacer.take(), pacer.take(), pacer.take()]);
    expect(waits).toEqual([100, 200]);
    clock = 1000;
    await pacer.take();
    expect(waits).toEqual([100, 200]);
  });
});

describe('decision notices', () => {
  it('sends one notice in the applicant’s language after the quiet period, and never again', async () => {
    const { run, whatsapp, requeued, accepted, notices, setNow } = decisionSetup({ now: '2026-11-24T08:33:00.000Z' });
    // One minute after the change: put back for the remaining four, nothing sent.
    expect(await run(record('d', decision))).toEqual({ batchItemFailures: [] });
    expect(requeued).toEqual([{ body: decision, delaySeconds: 240 }]);
    expect(whatsapp).toEqual([]);

    setNow('2026-11-24T08:37:01.000Z');
    await run(record('d-copy', decision));
    expect(whatsapp).toEqual([
      { to: '919876543210', name: 'decision_approved', language: 'ta', parameters: ['Kavya Raman'] },
    ]);
    expect(accepted).toEqual([{ channel: 'whatsapp', messageId: 'wamid.1', purpose: 'decision' }]);
    expect(await notices.sentFor('app-1')).toEqual([
      { decision: 'approved', channel: 'whatsapp', messageId: 'wamid.1', sentAt: '2026-11-24T08:37:01.000Z' },
    ]);
    // A redelivery, and a later approval's message that finds the claim: nothing more.
    await run(record('d-again', decision), record('d-later', { ...decision, changedAt: '2026-11-24T08:30:00.000Z' }));
    expect(whatsapp).toHaveLength(1);
  });

  it('sends nothing for a decision set back, superseded by a later change, or an erased application', async () => {
    const back = decisionSetup({ stored: { ...approvedApplication, application_status: 'pending' } });
    await back.run(record('d', decision));
    const later = decisionSetup({ stored: { ...approvedApplication, status_changed_at: '2026-11-24T08:35:00.000Z' } });
    await later.run(record('d', decision));
    const erased = decisionSetup();
    expect(await erased.run(record('d', { ...decision, applicationId: 'gone' }))).toEqual({ batchItemFailures: [] });
    for (const s of [back, later, erased]) {
      expect(s.whatsapp).toEqual([]);
      expect(s.requeued).toEqual([]);
      expect(s.notices.claims.size).toBe(0);
    }
  });

  it('falls back to SMS (Tamil template) when WhatsApp cannot deliver, but not when WhatsApp is busy', async () => {
    const fallback = decisionSetup({ whatsappFails: [undeliverable] });
    await fallback.run(record('d', decision));
    expect(fallback.sms).toEqual([
      { to: '919876543210', templateId: '1107000000000000001', variables: ['Kavya Raman'] },
    ]);
    expect(fallback.accepted).toEqual([{ channel: 'sms', messageId: 'sms-1', purpose: 'decision' }]);

    const busy = decisionSetup({ whatsappFails: [throttled] });
    await busy.run(record('d', decision));
    expect(busy.sms).toEqual([]);
    expect(busy.requeued).toHaveLength(1);
  });

  it('releases the claim when the send fails, so the retry sends', async () => {
    const { run, whatsapp, notices } = decisionSetup({ channels: 'whatsapp', whatsappFails: [undeliverable] });
    expect(await run(record('d', decision), record('h', { kind: 'webhook', applicationId: 'app-1' }))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'd' }],
    });
    expect(notices.claims.size).toBe(0);
    await run(record('d', decision, 2));
    expect(whatsapp).toHaveLength(1);
  });

  it('waits for a claim another consumer holds, without spending a receive', async () => {
    const { run, notices, requeued, whatsapp } = decisionSetup();
    await notices.claim('app-1', 'approved', new Date('2026-11-24T08:39:59.000Z'), 120);
    expect(await run(record('d', decision))).toEqual({ batchItemFailures: [] });
    expect(requeued).toEqual([{ body: decision, delaySeconds: 5 }]);
    expect(whatsapp).toEqual([]);
  });

  it('chooses the stage’s channels', () => {
    const settings = {
      quietSeconds: 0,
      whatsappTemplates: undefined,
      smsTemplates: { otp: { en: smsTemplate('{#var#}') }, approved: { en: smsTemplate('ok') } },
    };
    const wa = {
      approved: { name: 'a', languages: { en: 'en', ta: 'ta' } },
      rejected: { name: 'r', languages: { en: 'en', ta: 'ta' } },
    };
    expect(decisionChannels({ ...settings, channels: 'whatsapp-then-sms', whatsappTemplates: wa }, 'approved')).toEqual(
      ['whatsapp', 'sms'],
    );
    expect(decisionChannels({ ...settings, channels: 'whatsapp', whatsappTemplates: wa }, 'approved')).toEqual([
      'whatsapp',
    ]);
    expect(decisionChannels({ ...settings, channels: 'sms', whatsappTemplates: wa }, 'approved')).toEqual(['sms']);
    // No WhatsApp decision templates: SMS only; no SMS template for the decision: nothing.
    expect(decisionChannels({ ...settings, channels: 'whatsapp' }, 'approved')).toEqual(['sms']);
    expect(decisionChannels({ ...settings, channels: 'sms' }, 'rejected')).toEqual([]);
  });
});
