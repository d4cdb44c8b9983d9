import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryPersistence } from '../../test/support/memory-idempotency';
import { localLambdaContext } from '../../local/queue';
import type { Grievance } from '../adapters/grievances';
import { WhatsAppError } from '../adapters/whatsapp';
import { asTemplateParameter, grievanceAnswerChannels } from '../lib/grievance-answer-sender';
import { grievanceLinksOf } from '../lib/grievance-links';
import type * as Consumer from './outbound-consumer';

// The outbound consumer's `grievance-answer` kind (issue 21) with stand-in ports, as
// outbound-consumer.test.ts does for the others (its doubles, in a file of its own: that
// one is over the size limit and being split). The message names the ticket; the consumer
// reads it and sends the answer on the stage's channels: WhatsApp's template with the
// reference and the answer, or the DLT SMS with the reference and the answer page's link.
let consumer: typeof Consumer;

// Before any import: the logger is made when the senders' module is first imported.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

beforeAll(async () => {
  consumer = await import('./outbound-consumer');
});

function record(messageId: string, body: unknown, receiveCount = 1): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body: JSON.stringify(body),
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

/** A record that succeeds beside the one under test: a batch whose records all fail throws whole. */
const beside = () => record('beside', { kind: 'webhook', applicationId: 'erased-long-ago' });

const secret = { current: 'grievance-consumer-test-key', previous: '' };
const answered: Grievance = {
  id: 'k7qm2xrtabcdefgh',
  reference: 'K7QM-2XRT',
  text: 'My district is wrong.',
  phone: '919876543210',
  language: 'ta',
  via: 'verified',
  applicationId: 'app-1',
  district: 'Madurai',
  status: 'answered',
  openedAt: '2026-11-20T10:00:00.000Z',
  dueAt: '2027-02-18T10:00:00.000Z',
  answer: 'We corrected it.\n\nThank you    for\twriting.',
  answeredAt: '2026-11-22T10:00:00.000Z',
};
const message = { kind: 'grievance-answer', grievanceId: answered.id };
const smsTemplates = {
  otp: { en: { templateId: '1107000000000000001', text: 'Your code is {#var#}' } },
  grievanceAnswer: {
    en: { templateId: '1107000000000000501', text: 'Answered {#var#}: https://x.example/grievance?#{#var#}.{#var#}' },
    ta: { templateId: '1107000000000000502', text: 'பதில் {#var#}: https://x.example/grievance?#{#var#}.{#var#}' },
  },
};

function setup(
  options: {
    channels?: 'whatsapp' | 'sms' | 'whatsapp-then-sms';
    ticket?: Grievance | undefined;
    whatsappFails?: (() => Error)[];
    withTemplates?: boolean;
  } = {},
) {
  const tickets = new Map<string, Grievance>();
  const ticket = 'ticket' in options ? options.ticket : answered;
  if (ticket) tickets.set(ticket.id, ticket);
  const whatsappFails = [...(options.whatsappFails ?? [])];
  const whatsapp: { to: string; name: string; language: string; parameters: readonly string[] }[] = [];
  const sms: { to: string; templateId: string; variables: readonly string[] }[] = [];
  const accepted: { channel: string; purpose: string }[] = [];
  const handler = consumer.makeHandler({
    applications: { get: async () => undefined },
    gateway: async () => ({ sendWelcome: async () => 'wamid.welcome' }),
    webhook: async () => ({ deliver: async () => ({ status: 200 }) }),
    persistenceStore: new MemoryPersistence(),
    visibility: { change: async () => undefined },
    retryBaseSeconds: 60,
    maxReceiveCount: 5,
    deliveries: {
      recordAccepted: async (ref, meta) => void accepted.push({ channel: ref.channel, purpose: meta.purpose }),
    },
    grievanceAnswers: {
      settings: {
        channels: options.channels ?? 'whatsapp-then-sms',
        whatsappTemplate:
          options.withTemplates === false ? undefined : { name: 'grievance_answer', languages: { en: 'en', ta: 'ta' } },
        smsTemplates: options.withTemplates === false ? undefined : smsTemplates,
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
          sms.push({ to, templateId: template.templateId, variables });
          return `sms-${sms.length}`;
        },
      }),
      grievances: {
        get: async (id) => tickets.get(id),
        markSent: async (id, _channel, at) => {
          const known = tickets.get(id);
          if (known) tickets.set(id, { ...known, answerSentAt: at.toISOString() });
        },
      },
      links: async () => grievanceLinksOf(secret),
    },
    clock: () => new Date('2026-11-22T10:01:00.000Z'),
  });
  const run = (...records: SQSRecord[]) =>
    handler({ Records: records }, localLambdaContext('outbound-consumer', 30_000));
  return { run, whatsapp, sms, accepted, tickets };
}

describe('a grievance answer', () => {
  it('goes by WhatsApp in the ticket’s language, the reference and the answer on one line as parameters', async () => {
    const { run, whatsapp, sms, accepted, tickets } = setup();
    expect(await run(record('g1', message))).toEqual({ batchItemFailures: [] });
    expect(whatsapp).toEqual([
      {
        to: '919876543210',
        name: 'grievance_answer',
        language: 'ta',
        parameters: ['K7QM-2XRT', 'We corrected it. Thank you for writing.'],
      },
    ]);
    expect(sms).toEqual([]);
    expect(accepted).toEqual([{ channel: 'whatsapp', purpose: 'grievance' }]);
    expect(tickets.get(answered.id)?.answerSentAt).toBe('2026-11-22T10:01:00.000Z');
  });

  it('goes by SMS on an SMS stage: the registered template with the reference and the answer page’s link', async () => {
    const { run, whatsapp, sms } = setup({ channels: 'sms' });
    expect(await run(record('g2', message))).toEqual({ batchItemFailures: [] });
    expect(whatsapp).toEqual([]);
    const [id, mac] = grievanceLinksOf(secret).linkOf(answered.id).split('.');
    // Tamil where a Tamil template is registered; each variable within DLT's 30 characters.
    expect(sms).toEqual([{ to: '919876543210', templateId: '1107000000000000502', variables: ['K7QM-2XRT', id, mac] }]);
    expect(sms[0]!.variables.every((variable) => variable.length <= 30)).toBe(true);
  });

  it('falls back to SMS when WhatsApp refuses the number, not when it is busy', async () => {
    const undeliverable = () => new WhatsAppError('provider', { code: 131026, status: 400 });
    const fellBack = setup({ whatsappFails: [undeliverable] });
    expect(await fellBack.run(record('g3', message))).toEqual({ batchItemFailures: [] });
    expect(fellBack.sms).toHaveLength(1);

    const busy = () => new WhatsAppError('provider', { code: 130429, status: 429 });
    const throttled = setup({ whatsappFails: [busy, busy, busy, busy, busy, busy] });
    expect(await throttled.run(record('g4', message), beside())).toEqual({
      batchItemFailures: [{ itemIdentifier: 'g4' }],
    });
    expect(throttled.sms).toEqual([]);
  });

  it('is sent once: a second delivery, a ticket whose answer went, or one erased meanwhile send nothing', async () => {
    const twice = setup();
    await twice.run(record('g5', message));
    await twice.run(record('g5-again', message));
    expect(twice.whatsapp).toHaveLength(1);

    const sentBefore = setup({ ticket: { ...answered, answerSentAt: '2026-11-22T09:00:00.000Z' } });
    expect(await sentBefore.run(record('g6', message))).toEqual({ batchItemFailures: [] });
    const erased = setup({ ticket: undefined });
    expect(await erased.run(record('g7', message))).toEqual({ batchItemFailures: [] });
    expect([...sentBefore.whatsapp, ...sentBefore.sms, ...erased.whatsapp, ...erased.sms]).toEqual([]);
  });

  it('fails (to be retried, then dead-lettered) where no template fits, and sends nothing', async () => {
    const { run, whatsapp, sms } = setup({ withTemplates: false });
    expect(await run(record('g8', message), beside())).toEqual({ batchItemFailures: [{ itemIdentifier: 'g8' }] });
    expect([...whatsapp, ...sms]).toEqual([]);
  });

  it('is refused as a message when it names no ticket id of the schema', async () => {
    const { run, whatsapp } = setup();
    const bad = await run(record('g9', { kind: 'grievance-answer', grievanceId: 'K7QM 2XRT!' }), beside());
    expect(bad).toEqual({ batchItemFailures: [{ itemIdentifier: 'g9' }] });
    expect(whatsapp).toEqual([]);
  });
});

describe('its channels and parameter', () => {
  it('follow the stage: WhatsApp first where it has the template, SMS where registered', () => {
    const whatsappTemplate = { name: 'grievance_answer', languages: { en: 'en', ta: 'ta' } };
    expect(grievanceAnswerChannels({ channels: 'whatsapp-then-sms', whatsappTemplate, smsTemplates })).toEqual([
      'whatsapp',
      'sms',
    ]);
    expect(grievanceAnswerChannels({ channels: 'sms', whatsappTemplate, smsTemplates })).toEqual(['sms']);
    expect(grievanceAnswerChannels({ channels: 'whatsapp', whatsappTemplate, smsTemplates })).toEqual(['whatsapp']);
    expect(
      grievanceAnswerChannels({ channels: 'whatsapp-then-sms', whatsappTemplate, smsTemplates: undefined }),
    ).toEqual(['whatsapp']);
  });

  it('holds no line break, tab or run of spaces (Meta refuses them, 132018)', () => {
    expect(asTemplateParameter('  a\r\n\r\nb\t\tc     d ')).toBe('a b c d');
  });
});
