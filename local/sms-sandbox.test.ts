import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  type SendTextMessageCommandInput,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSmsGateway } from '../lambdas/adapters/sms';
import { matchTemplate, smsParts, startSmsSandbox, type SmsDeliveryEvent, type SmsSandbox } from './sms-sandbox';

const senderId = 'TNSWNG';
const configurationSet = 'membership-test-sms';
const entityId = '1201000000000012345';
const otpTemplate = {
  templateId: '1207000000000000101',
  text: 'Your OTP for membership is {#var#}. It is valid for 5 minutes. - Students Wing',
};
const tamilTemplate = {
  templateId: '1207000000000000102',
  text: 'உறுப்பினர் சேர்க்கைக்கான OTP {#var#}. இதை யாருடனும் பகிர வேண்டாம். - மாணவர் அணி',
};
const noticeTemplate = {
  templateId: '1207000000000000201',
  text: 'Your application has been approved. - Students Wing',
  kind: 'decision',
};

let sandbox: SmsSandbox;
let client: PinpointSMSVoiceV2Client;
let events: SmsDeliveryEvent[] = [];
/** Set to hold the sandbox's clock still (rate tests must not depend on this machine's speed). */
let frozenAt: number | undefined;

beforeAll(async () => {
  sandbox = await startSmsSandbox({
    port: 0,
    originationIdentity: senderId,
    configurationSetName: configurationSet,
    entityId,
    templates: [otpTemplate, tamilTemplate, noticeTemplate],
    eventDelayMs: 20,
    now: () => frozenAt ?? Date.now(),
    onEvent: (event) => {
      events.push(event);
    },
  });
  // The production client's own settings: one attempt (the caller decides about retries).
  client = new PinpointSMSVoiceV2Client({
    region: 'ap-south-1',
    endpoint: sandbox.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
  events = [];
});

const otp = (code: string, overrides: Partial<SendTextMessageCommandInput> = {}): SendTextMessageCommandInput => ({
  DestinationPhoneNumber: '+919876543210',
  OriginationIdentity: senderId,
  MessageBody: otpTemplate.text.replace('{#var#}', code),
  MessageType: 'TRANSACTIONAL',
  ConfigurationSetName: configurationSet,
  DestinationCountryParameters: { IN_ENTITY_ID: entityId, IN_TEMPLATE_ID: otpTemplate.templateId },
  ...overrides,
});

const send = (input: SendTextMessageCommandInput, abortSignal?: AbortSignal) =>
  client.send(new SendTextMessageCommand(input), abortSignal ? { abortSignal } : {});

/** The exception the SDK throws, by name, with its modelled fields. */
async function refusal(input: SendTextMessageCommandInput) {
  try {
    await send(input);
  } catch (error) {
    const e = error as Error & { Reason?: string; $metadata?: { httpStatusCode?: number }; $fault?: string };
    return { name: e.name, reason: e.Reason, status: e.$metadata?.httpStatusCode, fault: e.$fault, message: e.message };
  }
  throw new Error('the send was accepted');
}

const waitUntil = async (check: () => boolean, ms = 5000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('SMS sandbox (End User Messaging SMS, through the real SDK client)', () => {
  it('accepts a DLT-conforming OTP, answers a MessageId and records the code', async () => {
    const result = await send(otp('123456'));
    expect(result.MessageId).toMatch(/^[0-9a-f-]{36}$/);
    const [message] = sandbox.messages();
    expect(message).toMatchObject({
      id: result.MessageId,
      channel: 'sms',
      to: '919876543210',
      kind: 'otp',
      code: '123456',
      templateId: otpTemplate.templateId,
      template: otpTemplate.templateId,
      status: 'accepted',
    });
    expect(sandbox.latestOtp('919876543210')).toBe('123456');
  });

  it('accepts Tamil templates to the character, and fixed texts without a code', async () => {
    await send(
      otp('654321', {
        MessageBody: tamilTemplate.text.replace('{#var#}', '654321'),
        DestinationCountryParameters: { IN_ENTITY_ID: entityId, IN_TEMPLATE_ID: tamilTemplate.templateId },
      }),
    );
    await send(
      otp('', {
        MessageBody: noticeTemplate.text,
        DestinationCountryParameters: { IN_ENTITY_ID: entityId, IN_TEMPLATE_ID: noticeTemplate.templateId },
      }),
    );
    expect(sandbox.messages().map((m) => [m.kind, m.code])).toEqual([
      ['decision', undefined],
      ['otp', '654321'],
    ]);
  });

  it.each([
    ['no destination', { DestinationPhoneNumber: undefined }, 'ValidationException', 'MISSING_PARAMETER'],
    [
      'a number that is not E.164',
      { DestinationPhoneNumber: '9876543210' },
      'ValidationException',
      'FIELD_VALIDATION_FAILED',
    ],
    [
      'a number outside India',
      { DestinationPhoneNumber: '+14155550100' },
      'ValidationException',
      'COUNTRY_NOT_ENABLED',
    ],
    [
      'an Indian number of 9 digits',
      { DestinationPhoneNumber: '+91987654321' },
      'ValidationException',
      'COUNTRY_NOT_ENABLED',
    ],
    ['no origination identity', { OriginationIdentity: undefined }, 'ValidationException', 'MISSING_PARAMETER'],
    ['another sender id', { OriginationIdentity: 'OTHERS' }, 'ResourceNotFoundException', undefined],
    ['another configuration set', { ConfigurationSetName: 'other' }, 'ResourceNotFoundException', undefined],
    ['a promotional message', { MessageType: 'PROMOTIONAL' }, 'ValidationException', 'INVALID_PARAMETER'],
    ['no DLT parameters', { DestinationCountryParameters: undefined }, 'ValidationException', 'MISSING_PARAMETER'],
    [
      'no template id',
      { DestinationCountryParameters: { IN_ENTITY_ID: entityId } },
      'ValidationException',
      'MISSING_PARAMETER',
    ],
    [
      'another entity',
      { DestinationCountryParameters: { IN_ENTITY_ID: '1201000000000099999', IN_TEMPLATE_ID: otpTemplate.templateId } },
      'ValidationException',
      'INVALID_PARAMETER',
    ],
    [
      'an unregistered template id',
      { DestinationCountryParameters: { IN_ENTITY_ID: entityId, IN_TEMPLATE_ID: '1207000000000009999' } },
      'ValidationException',
      'INVALID_PARAMETER',
    ],
    [
      'a body over 1600 characters',
      { MessageBody: 'x'.repeat(1601) },
      'ValidationException',
      'FIELD_VALIDATION_FAILED',
    ],
  ] as const)('refuses %s', async (_what, overrides, name, reason) => {
    const refused = await refusal(otp('123456', overrides));
    expect(refused).toMatchObject({ name, status: 400, fault: 'client' });
    if (reason) expect(refused.reason).toBe(reason);
    expect(sandbox.messages()).toEqual([]);
  });

  it.each([
    ['one character changed', otpTemplate.text.replace('{#var#}', '123456').replace('valid', 'Valid')],
    ['a trailing space', `${otpTemplate.text.replace('{#var#}', '123456')} `],
    ['a variable over 30 characters', otpTemplate.text.replace('{#var#}', '1'.repeat(31))],
    ['an empty variable', otpTemplate.text.replace('{#var#}', '')],
  ])('refuses a body that does not match its template: %s', async (_what, body) => {
    const refused = await refusal(otp('123456', { MessageBody: body }));
    expect(refused).toMatchObject({ name: 'ValidationException', reason: 'INVALID_PARAMETER' });
  });

  it.each([
    ['throttled', 'ThrottlingException', 400, 'client'],
    ['quota', 'ServiceQuotaExceededException', 400, 'client'],
    ['http500', 'InternalServerException', 500, 'server'],
  ] as const)('failNext(%s) answers %s, then sends again', async (mode, name, status, fault) => {
    sandbox.failNext({ mode, times: 2 });
    for (let i = 0; i < 2; i++) expect(await refusal(otp('111111'))).toMatchObject({ name, status, fault });
    await send(otp('222222'));
    expect(sandbox.messages().map((m) => m.code)).toEqual(['222222']);
  });

  it('timeout mode holds the request until the client gives up', async () => {
    sandbox.failNext({ mode: 'timeout' });
    const started = Date.now();
    await expect(send(otp('111111'), AbortSignal.timeout(200))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await send(otp('222222'));
  });

  it('reports TEXT_SUCCESSFUL then TEXT_DELIVERED in AWS’s event shape, and the status follows', async () => {
    const { MessageId } = await send(otp('123456', { Context: { purpose: 'otp' } }));
    await waitUntil(() => events.length === 2);
    expect(events.map((e) => [e.eventType, e.messageStatus, e.isFinal])).toEqual([
      ['TEXT_SUCCESSFUL', 'SUCCESSFUL', false],
      ['TEXT_DELIVERED', 'DELIVERED', true],
    ]);
    expect(events[1]).toMatchObject({
      eventVersion: '1.0',
      messageId: MessageId,
      originationPhoneNumber: senderId,
      destinationPhoneNumber: '+919876543210',
      isoCountryCode: 'IN',
      messageType: 'TRANSACTIONAL',
      messageEncoding: 'GSM',
      totalMessageParts: 1,
      context: { purpose: 'otp' },
    });
    expect(typeof events[1]?.eventTimestamp).toBe('number');
    expect(sandbox.messages()[0]).toMatchObject({ status: 'delivered', lastEvent: 'TEXT_DELIVERED' });
  });

  it.each([
    ['blocked', 'TEXT_BLOCKED'],
    ['unreachable', 'TEXT_UNREACHABLE'],
  ] as const)('failNext(%s) accepts, then reports %s and the message failed', async (mode, eventType) => {
    sandbox.failNext({ mode });
    const { MessageId } = await send(otp('123456'));
    expect(MessageId).toBeTruthy();
    await waitUntil(() => events.length === 1);
    expect(events[0]).toMatchObject({ eventType, isFinal: true, messageId: MessageId });
    expect(sandbox.messages()[0]?.status).toBe('failed');
  });

  it('never-deliver accepts and reports nothing', async () => {
    sandbox.failNext({ mode: 'never-deliver' });
    await send(otp('123456'));
    await new Promise((r) => setTimeout(r, 120));
    expect(events).toEqual([]);
    expect(sandbox.messages()[0]?.status).toBe('accepted');
  });

  it('throttles calls beyond the account rate with ThrottlingException', async () => {
    sandbox.setRate(3);
    frozenAt = Date.now();
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => send(otp(`10000${i}`))));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(refused.map((r) => r.reason as Error).map((e) => e.name)).toEqual([
      'ThrottlingException',
      'ThrottlingException',
    ]);
    frozenAt += 1000;
    await send(otp('200000'));
    frozenAt = undefined;
  });

  it('refuses unsigned requests and other operations as AWS does', async () => {
    const unsigned = await fetch(sandbox.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'PinpointSMSVoiceV2.SendTextMessage' },
      body: '{}',
    });
    expect(unsigned.status).toBe(400);
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException/);
    const other = await fetch(sandbox.url, {
      method: 'POST',
      headers: {
        authorization: 'AWS4-HMAC-SHA256 Credential=local',
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'PinpointSMSVoiceV2.SendVoiceMessage',
      },
      body: '{}',
    });
    expect(((await other.json()) as { __type: string }).__type).toMatch(/UnknownOperationException$/);
  });
});

describe('DLT template matching and message parts', () => {
  it('matches each {#var#} to 1–30 characters and returns the variables', () => {
    expect(matchTemplate('Code {#var#} for {#var#}.', 'Code 123456 for you.')).toEqual(['123456', 'you']);
    expect(matchTemplate('Code {#var#}.', 'Code .')).toBeUndefined();
    expect(matchTemplate('Cost (in ₹) {#var#}?', 'Cost (in ₹) 5?')).toEqual(['5']);
  });

  it('counts parts as carriers split them', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'GSM', parts: 1 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'GSM', parts: 2 });
    expect(smsParts('அ'.repeat(70))).toEqual({ encoding: 'UCS2', parts: 1 });
    expect(smsParts('அ'.repeat(71))).toEqual({ encoding: 'UCS2', parts: 2 });
  });
});

describe("the functions' SMS gateway (lambdas/adapters/sms.ts, AWS JSON over fetch) against the sandbox", () => {
  const gateway = () =>
    makeSmsGateway({
      region: 'ap-south-1',
      endpoint: sandbox.url,
      originationIdentity: senderId,
      configurationSet,
      entityId,
      timeoutMs: 2000,
    });

  it('sends what the sandbox accepts: its MessageId, the code recorded', async () => {
    const messageId = await gateway().send('919876543210', otpTemplate, ['123456']);
    expect(sandbox.messages()).toEqual([
      expect.objectContaining({ id: messageId, code: '123456', status: 'accepted' }),
    ]);
  });

  it.each([
    ['throttled', 'throttled', 'ThrottlingException'],
    ['quota', 'throttled', 'ServiceQuotaExceededException'],
    ['http500', 'provider', 'InternalServerException'],
  ] as const)('failNext(%s) is a %s failure (%s), sent once', async (mode, failure, providerCode) => {
    // Two faults armed, two calls refused: each call is one request (no retry of its own).
    sandbox.failNext({ mode, times: 2 });
    for (let i = 0; i < 2; i++) {
      await expect(gateway().send('919876543210', otpTemplate, ['111111'])).rejects.toMatchObject({
        failure,
        providerCode,
      });
    }
    await gateway().send('919876543210', otpTemplate, ['222222']);
    expect(sandbox.messages().map((m) => m.code)).toEqual(['222222']);
  });

  it('is rejected, with the exception name, when the text does not match the registered template', async () => {
    const unregistered = { templateId: otpTemplate.templateId, text: 'Your code: {#var#}' };
    await expect(gateway().send('919876543210', unregistered, ['111111'])).rejects.toMatchObject({
      failure: 'rejected',
      providerCode: 'ValidationException',
    });
  });

  it('is a network failure when the sandbox does not answer within the call timeout', async () => {
    sandbox.failNext({ mode: 'timeout' });
    await expect(gateway().send('919876543210', otpTemplate, ['111111'], { timeoutMs: 200 })).rejects.toMatchObject({
      failure: 'network',
      providerCode: 'TimeoutError',
    });
  });
});
