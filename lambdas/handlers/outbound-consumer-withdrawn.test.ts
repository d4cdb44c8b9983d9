import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryPersistence } from '../../test/support/memory-idempotency';
import { localLambdaContext } from '../../local/queue';
import { dbDouble, serviceError } from '../../test/support/db-double';
import {
  makeWithdrawalConfirmationStore,
  withdrawalConfirmationKey,
  withdrawalConfirmationPut,
} from '../adapters/withdrawal-confirmations';
import { WhatsAppError } from '../adapters/whatsapp';
import { DeleteCommand, GetCommand } from '../lib/db';
import { withdrawalChannels, type WithdrawalSettings } from '../lib/withdrawal-sender';
import type * as Consumer from './outbound-consumer';

// The confirmation after an applicant's own withdrawal (issue 21), with stand-in ports: the
// consumer reads the `WITHDRAWN#<id>` item (through its real adapter over the Db double),
// sends by the stage's channels in the language applied in, records the message, deletes
// the item, and never sends twice. The whole path (withdrawal, queue, sandboxes) is in
// test/integration/my-application.test.ts.
let consumer: typeof Consumer;

beforeAll(async () => {
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
  consumer = await import('./outbound-consumer');
});

const now = new Date('2026-12-01T10:00:00.000Z');
const phone = '919876543210';
const smsTemplate = (templateId: string, text: string) => ({ templateId, text });
const settings: WithdrawalSettings = {
  channels: 'whatsapp-then-sms',
  whatsappTemplate: { name: 'withdrawal_confirmed', languages: { en: 'en_US', ta: 'ta' } },
  smsTemplates: {
    otp: { en: smsTemplate('1107000000000000001', 'Your code is {#var#}') },
    withdrawn: {
      en: smsTemplate('1107000000000000401', 'Your application was withdrawn.'),
      ta: smsTemplate('1107000000000000402', 'உங்கள் விண்ணப்பம் திரும்பப் பெறப்பட்டது.'),
    },
  },
};

/** The item the withdrawal's transaction writes, for an application applied for in `language`. */
function itemFor(id: string, language: 'en' | 'ta', at = now) {
  const [put] = withdrawalConfirmationPut('deliveries', id, { phone_number: phone, language }, at);
  return put!.Put.Item;
}

function setup(options: { channels?: WithdrawalSettings['channels']; whatsappFails?: (() => Error)[] } = {}) {
  const whatsappFails = [...(options.whatsappFails ?? [])];
  const whatsapp: { to: string; name: string; language: string; parameters: readonly string[] }[] = [];
  const sms: { to: string; templateId: string; variables: readonly string[] }[] = [];
  const accepted: { channel: string; purpose: string; applicationId?: string }[] = [];
  const recipients: string[] = [];
  const double = dbDouble();
  const handler = consumer.makeHandler({
    applications: { get: () => Promise.reject(new Error('a withdrawn application is not read')) },
    gateway: () => Promise.reject(new Error('no welcome here')),
    webhook: () => Promise.reject(new Error('no webhook here')),
    persistenceStore: new MemoryPersistence(),
    visibility: { change: async () => undefined },
    retryBaseSeconds: 60,
    maxReceiveCount: 5,
    withdrawals: {
      settings: { ...settings, channels: options.channels ?? settings.channels },
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
      confirmations: makeWithdrawalConfirmationStore(double.db, 'deliveries'),
      recipients: { record: async (to) => recipients.push(to) },
    },
    deliveries: {
      recordAccepted: async (ref, meta) =>
        void accepted.push({ channel: ref.channel, purpose: meta.purpose, applicationId: meta.applicationId }),
    },
    clock: () => now,
  });
  const run = (...records: SQSRecord[]) =>
    handler({ Records: records }, localLambdaContext('outbound-consumer', 30_000));
  const deleted = () => double.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key);
  return { run, double, whatsapp, sms, accepted, recipients, deleted };
}

function record(messageId: string, applicationId: string, receiveCount = 1): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body: JSON.stringify({ kind: 'withdrawn', applicationId }),
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

const undeliverable = () => new WhatsAppError('provider', { code: 131026, status: 400 });
const providerDown = () => new WhatsAppError('provider', { code: 131000, status: 500 });

describe('withdrawal confirmations', () => {
  it('sends the WhatsApp template in the language applied in, records it, deletes the item, and never sends twice', async () => {
    const s = setup();
    s.double.on(GetCommand).resolves({ Item: itemFor('app-9', 'ta') });
    expect(await s.run(record('m1', 'app-9'))).toEqual({ batchItemFailures: [] });
    expect(s.whatsapp).toEqual([{ to: phone, name: 'withdrawal_confirmed', language: 'ta', parameters: [] }]);
    expect(s.accepted).toEqual([{ channel: 'whatsapp', purpose: 'withdrawn', applicationId: 'app-9' }]);
    expect(s.recipients).toEqual([phone]);
    expect(s.deleted()).toEqual([{ pk: withdrawalConfirmationKey('app-9') }]);
    // The item is read consistently: a message right after the withdrawal must find it.
    expect(s.double.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ ConsistentRead: true });

    // Redelivered (SQS's at-least-once), even while the item were still there: nothing more.
    expect(await s.run(record('m2', 'app-9'))).toEqual({ batchItemFailures: [] });
    expect(s.whatsapp).toHaveLength(1);
    expect(s.sms).toEqual([]);
  });

  it('falls back to the Tamil SMS template when WhatsApp cannot deliver; an SMS-only stage sends SMS in English', async () => {
    const s = setup({ whatsappFails: [undeliverable] });
    s.double.on(GetCommand).resolves({ Item: itemFor('app-9', 'ta') });
    expect(await s.run(record('m1', 'app-9'))).toEqual({ batchItemFailures: [] });
    expect(s.sms).toEqual([{ to: phone, templateId: '1107000000000000402', variables: [] }]);
    expect(s.accepted).toEqual([{ channel: 'sms', purpose: 'withdrawn', applicationId: 'app-9' }]);
    expect(s.recipients).toEqual([]);

    const smsOnly = setup({ channels: 'sms' });
    smsOnly.double.on(GetCommand).resolves({ Item: itemFor('app-8', 'en') });
    await smsOnly.run(record('m1', 'app-8'));
    expect(smsOnly.whatsapp).toEqual([]);
    expect(smsOnly.sms).toEqual([{ to: phone, templateId: '1107000000000000401', variables: [] }]);
  });

  it('sends nothing, and succeeds, when the item is gone (sent before) or past its day', async () => {
    const s = setup();
    s.double
      .on(GetCommand)
      .resolvesOnce({})
      .resolvesOnce({ Item: itemFor('old', 'en', new Date('2026-11-30T09:59:59.000Z')) });
    expect(await s.run(record('m1', 'gone'), record('m2', 'old'))).toEqual({ batchItemFailures: [] });
    expect(s.whatsapp).toEqual([]);
    expect(s.sms).toEqual([]);
    expect(s.deleted()).toEqual([]);
  });

  it('keeps the item when the send fails, so that the retry sends', async () => {
    const s = setup({ channels: 'whatsapp', whatsappFails: [providerDown] });
    s.double.on(GetCommand).resolves({ Item: itemFor('app-9', 'en') });
    // Every record of the batch failed: Powertools throws, and Lambda retries the batch.
    await expect(s.run(record('m1', 'app-9'))).rejects.toThrow(/All records failed/);
    expect(s.whatsapp).toEqual([]);
    expect(s.deleted()).toEqual([]);
    expect(await s.run(record('m1', 'app-9', 2))).toEqual({ batchItemFailures: [] });
    expect(s.whatsapp).toEqual([{ to: phone, name: 'withdrawal_confirmed', language: 'en_US', parameters: [] }]);
    expect(s.deleted()).toEqual([{ pk: withdrawalConfirmationKey('app-9') }]);
  });

  it('does not fail (and send again) when only the deletion after the send fails', async () => {
    const s = setup();
    s.double.on(GetCommand).resolves({ Item: itemFor('app-9', 'en') });
    s.double.on(DeleteCommand).rejects(serviceError('ProvisionedThroughputExceededException'));
    expect(await s.run(record('m1', 'app-9'))).toEqual({ batchItemFailures: [] });
    expect(s.whatsapp).toHaveLength(1);
  });

  it('fails the message for the dead-letter queue when no template fits the stage’s channels', async () => {
    expect(withdrawalChannels(settings)).toEqual(['whatsapp', 'sms']);
    expect(withdrawalChannels({ ...settings, channels: 'whatsapp' })).toEqual(['whatsapp']);
    expect(withdrawalChannels({ ...settings, channels: 'sms' })).toEqual(['sms']);
    expect(withdrawalChannels({ ...settings, channels: 'sms', smsTemplates: undefined })).toEqual([]);
    const bare = consumer.makeHandler({
      applications: { get: async () => undefined },
      gateway: () => Promise.reject(new Error('unused')),
      webhook: () => Promise.reject(new Error('unused')),
      persistenceStore: new MemoryPersistence(),
      visibility: { change: async () => undefined },
      retryBaseSeconds: 60,
      maxReceiveCount: 5,
    });
    // Without the confirmations wired in, the message is kept for retry, never dropped.
    await expect(
      bare({ Records: [record('m1', 'app-9')] }, localLambdaContext('outbound-consumer', 30_000)),
    ).rejects.toThrow(/All records failed/);
  });
});

describe('the withdrawal’s item', () => {
  it('holds the number and the language applied in for one day, and nothing for an application without a number', () => {
    const [put] = withdrawalConfirmationPut(
      'deliveries',
      'app-1',
      { phone_number: phone, consent: { language: 'ta', terms_version: 'x' }, name: 'Kavya' },
      now,
    );
    expect(put!.Put).toEqual({
      TableName: 'deliveries',
      Item: {
        pk: 'WITHDRAWN#app-1',
        phone_number: phone,
        language: 'ta',
        created_at: now.toISOString(),
        ttl: now.getTime() / 1000 + 86_400,
      },
    });
    expect(withdrawalConfirmationPut('deliveries', 'app-2', { phone_number: 'none' }, now)).toEqual([]);
  });
});
