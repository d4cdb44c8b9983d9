import { randomUUID } from 'node:crypto';

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context, SNSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStore, makeDeliveryStore, type MessageRef } from '../../lambdas/adapters/deliveries';
import type * as SmsEventsModule from '../../lambdas/handlers/sms-events';
import { metaSignature } from '../../lambdas/lib/webhook-signature';
import { localSecrets } from '../../local/config';
import { testStackConfig } from '../support/test-stack';
import { localDb, localDynamoClient } from '../../local/dynamodb';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { uniqueMobile } from '../support/public-flow';

// Delivery status from the providers, through the local stack: Meta's webhook over HTTP
// (the route, the API adapter, the handler module, DynamoDB Local) and the SMS events
// consumer invoked as SNS invokes it. A POST counts only with Meta's signature over its
// exact bytes; nothing unsigned is stored; no body, however odd, gets a 5xx.

let stack: LocalStack;
let client: ReturnType<typeof localDynamoClient>;
let store: DeliveryStore;
let webhookUrl: string;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  stack = await startLocalStack(testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' }));
  webhookUrl = `${stack.apiUrl}/api/whatsapp/webhook`;
  client = localDynamoClient(stack.dynamoDbEndpoint);
  store = makeDeliveryStore(
    localDb(stack.dynamoDbEndpoint),
    stack.tableNames.deliveries,
  );
}, 60_000);
afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

const appSecret = localSecrets.whatsappAppSecret;
const wamid = () => `wamid.${Buffer.from(randomUUID()).toString('base64url')}`;
const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

interface StatusUpdate {
  id: unknown;
  status: unknown;
  timestamp?: unknown;
  errors?: unknown;
}

/** A status notification as Meta sends it, with the recipient's number in it as Meta does. */
function notification(statuses: readonly StatusUpdate[]) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: localSecrets.whatsappPhoneNumberId },
              statuses: statuses.map((s) => ({
                recipient_id: `91${uniqueMobile()}`,
                conversation: { id: 'c1', origin: { type: 'authentication' } },
                pricing: { billable: true, pricing_model: 'CBP', category: 'authentication' },
                ...s,
              })),
            },
          },
        ],
      },
    ],
  };
}

interface Sent {
  status: number;
  text: string;
  contentType: string | null;
}

async function postWebhook(body: string, headers: Record<string, string> = {}): Promise<Sent> {
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
}

const signed = (body: string, secret = appSecret) =>
  postWebhook(body, { 'x-hub-signature-256': metaSignature(secret, body) });
const errorCode = (sent: Sent) => (JSON.parse(sent.text) as { error: { code: string } }).error.code;
const whatsapp = (messageId: string): MessageRef => ({ channel: 'whatsapp', messageId });

describe('WhatsApp webhook: signature', () => {
  it('refuses an unsigned POST and stores nothing', async () => {
    const id = wamid();
    const result = await postWebhook(
      JSON.stringify(notification([{ id, status: 'delivered', timestamp: seconds(new Date()) }])),
    );
    expect(result.status).toBe(401);
    expect(errorCode(result)).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(await store.get(whatsapp(id))).toBeUndefined();
  });

  it('refuses a POST signed with another secret, or with a malformed header, and stores nothing', async () => {
    const id = wamid();
    const body = JSON.stringify(notification([{ id, status: 'delivered', timestamp: seconds(new Date()) }]));
    const right = metaSignature(appSecret, body);
    for (const header of [
      metaSignature('not-the-app-secret', body),
      right.replace('sha256=', 'sha1='),
      right.slice(0, -2),
      `${right}00`,
      right.replace('sha256=', ''),
      '',
      'sha256=',
    ]) {
      const result = await postWebhook(body, { 'x-hub-signature-256': header });
      expect(result.status, header).toBe(401);
      expect(errorCode(result)).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
    expect(await store.get(whatsapp(id))).toBeUndefined();
  });

  it('refuses a signature made over a different body', async () => {
    const id = wamid();
    const original = JSON.stringify(notification([{ id, status: 'sent', timestamp: seconds(new Date()) }]));
    const tampered = original.replace('"sent"', '"read"');
    const result = await postWebhook(tampered, { 'x-hub-signature-256': metaSignature(appSecret, original) });
    expect(result.status).toBe(401);
    // The same JSON with other spacing is other bytes: refused too.
    const respaced = JSON.stringify(JSON.parse(original), null, 1);
    expect((await postWebhook(respaced, { 'x-hub-signature-256': metaSignature(appSecret, original) })).status).toBe(
      401,
    );
    expect(await store.get(whatsapp(id))).toBeUndefined();
  });

  it('records a correctly signed status, as text or as base64 from API Gateway', async () => {
    const at = new Date(Date.now() - 5000);
    const id = wamid();
    const result = await signed(JSON.stringify(notification([{ id, status: 'delivered', timestamp: seconds(at) }])));
    expect(result).toMatchObject({ status: 200 });
    expect(JSON.parse(result.text)).toEqual({ ok: true });
    expect(await store.get(whatsapp(id))).toEqual({
      channel: 'whatsapp',
      messageId: id,
      status: 'delivered',
      deliveredAt: new Date(Number(seconds(at)) * 1000).toISOString(),
    });

    // A content type API Gateway does not take for text reaches the function base64-encoded.
    const other = wamid();
    const body = JSON.stringify(notification([{ id: other, status: 'sent', timestamp: seconds(at) }]));
    const binary = await postWebhook(body, {
      'content-type': 'application/octet-stream',
      'x-hub-signature-256': metaSignature(appSecret, body),
    });
    expect(binary.status).toBe(200);
    expect(await store.get(whatsapp(other))).toMatchObject({ status: 'sent' });
  });

  it('signs the raw bytes: non-ASCII text and the signature header in any case', async () => {
    const id = wamid();
    const body = JSON.stringify({
      ...notification([{ id, status: 'read', timestamp: seconds(new Date()) }]),
      note: 'தமிழ்',
    });
    const result = await postWebhook(body, {
      'X-Hub-Signature-256': metaSignature(appSecret, Buffer.from(body, 'utf8')),
    });
    expect(result.status).toBe(200);
    expect(await store.get(whatsapp(id))).toMatchObject({ status: 'read' });
  });
});

describe('WhatsApp webhook: statuses', () => {
  it('keeps the highest status and each first time, however Meta orders and repeats them', async () => {
    const id = wamid();
    const base = Math.floor(Date.now() / 1000) - 100;
    const t = (s: number) => String(base + s);
    // read before delivered, failed after delivered, sent last and twice: one body, then more.
    expect(
      (
        await signed(
          JSON.stringify(
            notification([
              { id, status: 'read', timestamp: t(30) },
              { id, status: 'failed', timestamp: t(40), errors: [{ code: 131026, title: 'Message undeliverable' }] },
            ]),
          ),
        )
      ).status,
    ).toBe(200);
    for (const update of [
      { id, status: 'delivered', timestamp: t(20) },
      { id, status: 'sent', timestamp: t(10) },
      { id, status: 'sent', timestamp: t(50) },
      { id, status: 'read', timestamp: t(60) },
    ]) {
      expect((await signed(JSON.stringify(notification([update])))).status).toBe(200);
    }
    const iso = (s: number) => new Date(Number(t(s)) * 1000).toISOString();
    expect(await store.get(whatsapp(id))).toEqual({
      channel: 'whatsapp',
      messageId: id,
      status: 'read',
      errorCode: '131026',
      sentAt: iso(10),
      deliveredAt: iso(20),
      readAt: iso(30),
      failedAt: iso(40),
    });
  });

  it('records a failure with its code, and ignores statuses it does not track', async () => {
    const failed = wamid();
    const deleted = wamid();
    const result = await signed(
      JSON.stringify(
        notification([
          {
            id: failed,
            status: 'failed',
            timestamp: seconds(new Date()),
            errors: [{ code: 131049, title: 'Not delivered' }],
          },
          { id: deleted, status: 'deleted', timestamp: seconds(new Date()) },
        ]),
      ),
    );
    expect(result.status).toBe(200);
    expect(await store.get(whatsapp(failed))).toMatchObject({ status: 'failed', errorCode: '131049' });
    expect(await store.get(whatsapp(deleted))).toBeUndefined();
  });

  it('answers a signed body that is not a Meta notification with 400, and one without statuses with 200', async () => {
    for (const body of [
      'not json',
      '[]',
      'null',
      '{"entry":"x"}',
      '{"entry":[{"changes":[{"value":{"statuses":[{"status":"sent"}]}}]}]}',
    ]) {
      const result = await signed(body);
      expect(result.status, body).toBe(400);
      expect(errorCode(result)).toBe('VALIDATION_FAILED');
    }
    const messages = {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { messages: [] } }] }],
    };
    expect((await signed(JSON.stringify(messages))).status).toBe(200);
  });
});

describe('WhatsApp webhook: verification challenge', () => {
  const challenge = (params: Record<string, string>) =>
    fetch(`${webhookUrl}?${new URLSearchParams(params).toString()}`).then(async (r) => ({
      status: r.status,
      text: await r.text(),
      contentType: r.headers.get('content-type'),
    }));

  it('echoes the challenge as text only for the right verify token', async () => {
    const ok = await challenge({
      'hub.mode': 'subscribe',
      'hub.verify_token': localSecrets.whatsappVerifyToken,
      'hub.challenge': '1158201444',
    });
    expect(ok).toEqual({ status: 200, text: '1158201444', contentType: 'text/plain; charset=utf-8' });
  });

  it.each([
    [
      'a wrong token',
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'not-the-verify-token', 'hub.challenge': '1158201444' },
    ],
    [
      'the token with a suffix',
      { 'hub.mode': 'subscribe', 'hub.verify_token': `${localSecrets.whatsappVerifyToken}x`, 'hub.challenge': '1' },
    ],
    ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': '1158201444' }],
    [
      'another mode',
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': localSecrets.whatsappVerifyToken, 'hub.challenge': '1' },
    ],
    ['no parameters', {}],
  ])('refuses %s with 403', async (_, params) => {
    const refused = await challenge(params);
    expect(refused.status).toBe(403);
    expect((JSON.parse(refused.text) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    expect(refused.text).not.toContain('1158201444');
  });
});

describe('WhatsApp webhook when the app secret and verify token are not configured', () => {
  let call: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;
  beforeAll(async () => {
    const { makeHandler } = await import('../../lambdas/handlers/whatsapp-webhook');
    const handler = makeHandler({
      deliveries: () => store,
      secrets: () => Promise.resolve({ whatsappAppSecret: '', whatsappVerifyToken: '' }),
      clock: () => new Date(),
    });
    call = (event) => handler(event, { awsRequestId: randomUUID() } as Context);
  });

  const event = (method: 'GET' | 'POST', extra: Partial<APIGatewayProxyEventV2>): APIGatewayProxyEventV2 => ({
    version: '2.0',
    routeKey: `${method} /api/whatsapp/webhook`,
    rawPath: '/api/whatsapp/webhook',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      accountId: '0',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: '/api/whatsapp/webhook', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: randomUUID(),
      routeKey: `${method} /api/whatsapp/webhook`,
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    ...extra,
  });

  it('refuses every POST, even one signed with the empty secret', async () => {
    const id = wamid();
    const body = JSON.stringify(notification([{ id, status: 'delivered', timestamp: seconds(new Date()) }]));
    const result = await call(event('POST', { body, headers: { 'x-hub-signature-256': metaSignature('', body) } }));
    expect(result.statusCode).toBe(401);
    expect(await store.get(whatsapp(id))).toBeUndefined();
  });

  it('refuses every challenge, even with an empty token', async () => {
    const result = await call(
      event('GET', {
        queryStringParameters: { 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': '1' },
      }),
    );
    expect(result.statusCode).toBe(403);
  });
});

describe('WhatsApp webhook: fuzzed bodies', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constant('x'.repeat(100_000)),
  );
  const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text);
  const statusLike = fc.record(
    {
      id: fc.oneof(
        fc.constant('wamid.fuzz').map(() => wamid()),
        fc.string({ unit: 'binary', maxLength: 600 }),
        fc.constant('x'.repeat(300)),
        anyValue,
      ),
      status: fc.oneof(fc.constantFrom('sent', 'delivered', 'read', 'failed', 'deleted', 'warning', ''), anyValue),
      timestamp: fc.oneof(
        fc.integer({ min: 0, max: 2 ** 40 }).map(String),
        fc.integer(),
        fc.double(),
        fc.constantFrom('-1', '1e9', '99999999999999999999', ''),
        anyValue,
      ),
      errors: fc.oneof(
        fc.array(
          fc.record(
            { code: fc.oneof(fc.integer(), fc.double(), fc.constantFrom('abc', '', 'x'.repeat(100)), anyValue) },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  );
  const metaLike = fc.record(
    {
      object: fc.oneof(fc.constant('whatsapp_business_account'), anyValue),
      entry: fc.oneof(
        fc.array(
          fc.record(
            {
              id: anyValue,
              changes: fc.oneof(
                fc.array(
                  fc.record(
                    {
                      field: fc.oneof(fc.constant('messages'), anyValue),
                      value: fc.oneof(
                        fc.record(
                          { statuses: fc.oneof(fc.array(statusLike, { maxLength: 4 }), anyValue) },
                          { requiredKeys: [] },
                        ),
                        anyValue,
                      ),
                    },
                    { requiredKeys: [] },
                  ),
                  { maxLength: 3 },
                ),
                anyValue,
              ),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: metaLike.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"entry":', 'x'.repeat(1_000_000)) },
  );
  const signing = fc.constantFrom('right', 'none', 'wrong', 'garbage', 'empty-secret');

  it('never answers 5xx, and answers 200 only to a signed body', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, signing, fc.boolean(), async (payload, sign, binary) => {
        const headers: Record<string, string> = {
          'content-type': binary ? 'application/octet-stream' : 'application/json',
        };
        if (sign === 'right') headers['x-hub-signature-256'] = metaSignature(appSecret, payload);
        if (sign === 'wrong') headers['x-hub-signature-256'] = metaSignature('another-secret', payload);
        if (sign === 'garbage') headers['x-hub-signature-256'] = payload.slice(0, 100).replace(/[^\x20-\x7e]/g, '');
        if (sign === 'empty-secret') headers['x-hub-signature-256'] = metaSignature('', payload);
        const result = await postWebhook(payload, headers);
        seen.set(result.status, (seen.get(result.status) ?? 0) + 1);
        expect(result.status, result.text).toBeLessThan(500);
        if (sign !== 'right') expect(result.status).toBe(401);
        if (result.status >= 400) expect(result.contentType).toMatch(/^application\/json/);
      }),
      { numRuns: 1000 },
    );
    // The run reached the handler's every answer: stored, refused, not Meta's shape.
    expect([...seen.keys()].sort()).toEqual([200, 400, 401]);
  }, 180_000);
});

describe('SMS events from the configuration set', () => {
  let handler: typeof SmsEventsModule.handler;
  let makeSmsHandler: typeof SmsEventsModule.makeHandler;
  beforeAll(async () => {
    // As local/stack.ts loads handlers: after the stack has set the functions' environment.
    const module = await import('../../lambdas/handlers/sms-events');
    handler = module.handler;
    makeSmsHandler = module.makeHandler;
  });

  const context = () => ({ awsRequestId: randomUUID(), functionName: 'sms-events' }) as Context;
  const sms = (messageId: string): MessageRef => ({ channel: 'sms', messageId });

  /** An End User Messaging SMS event as its event destination writes it (AWS's documented example). */
  function smsEvent(eventType: string, messageId: string, eventTimestamp: number, extra: Record<string, unknown> = {}) {
    return {
      eventType,
      eventVersion: '1.0',
      eventTimestamp,
      isFinal: eventType !== 'TEXT_QUEUED' && eventType !== 'TEXT_PENDING',
      originationPhoneNumber: 'TNSWNG',
      destinationPhoneNumber: `+91${uniqueMobile()}`,
      isoCountryCode: 'IN',
      isInternationalSend: false,
      mcc: '404',
      mnc: '45',
      messageId,
      messageRequestTimestamp: eventTimestamp - 300,
      messageEncoding: 'GSM',
      messageType: 'TRANSACTIONAL',
      messageStatus: eventType.replace(/^TEXT_/, ''),
      messageStatusDescription: 'Message has been accepted by phone',
      totalMessageParts: 1,
      totalMessagePrice: 0.0013,
      totalCarrierFee: 0,
      ...extra,
    };
  }

  function snsEvent(...messages: string[]): SNSEvent {
    return {
      Records: messages.map((Message) => ({
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:ap-south-1:000000000000:sms-events:1',
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: 'arn:aws:sns:ap-south-1:000000000000:sms-events',
          Subject: '',
          Message,
          Timestamp: new Date().toISOString(),
          SignatureVersion: '1',
          Signature: 'EXAMPLE',
          SigningCertUrl: 'https://sns.ap-south-1.amazonaws.com/cert.pem',
          UnsubscribeUrl: 'https://sns.ap-south-1.amazonaws.com/unsubscribe',
          MessageAttributes: {},
        },
      })),
    };
  }

  it('records sent and delivered, in any order, and a failure with its event type as code', async () => {
    const delivered = randomUUID();
    const failed = randomUUID();
    const t = Date.now() - 60_000;
    await handler(snsEvent(JSON.stringify(smsEvent('TEXT_DELIVERED', delivered, t + 2000))), context());
    await handler(
      snsEvent(
        JSON.stringify(smsEvent('TEXT_SUCCESSFUL', delivered, t + 1000)),
        JSON.stringify(smsEvent('TEXT_DELIVERED', delivered, t + 3000)),
        JSON.stringify(smsEvent('TEXT_BLOCKED', failed, t + 1500)),
      ),
      context(),
    );
    expect(await store.get(sms(delivered))).toEqual({
      channel: 'sms',
      messageId: delivered,
      status: 'delivered',
      sentAt: new Date(t + 1000).toISOString(),
      deliveredAt: new Date(t + 2000).toISOString(),
    });
    expect(await store.get(sms(failed))).toMatchObject({
      status: 'failed',
      errorCode: 'TEXT_BLOCKED',
      failedAt: new Date(t + 1500).toISOString(),
    });
  });

  it('raises a status the send already recorded as accepted, and stores nothing for queued or pending', async () => {
    const id = randomUUID();
    await store.recordAccepted(sms(id), { purpose: 'otp' }, new Date());
    await handler(
      snsEvent(
        JSON.stringify(smsEvent('TEXT_QUEUED', id, Date.now())),
        JSON.stringify(smsEvent('TEXT_PENDING', id, Date.now())),
      ),
      context(),
    );
    expect(await store.get(sms(id))).toMatchObject({ status: 'accepted', purpose: 'otp' });
    await handler(snsEvent(JSON.stringify(smsEvent('TEXT_TTL_EXPIRED', id, Date.now()))), context());
    expect(await store.get(sms(id))).toMatchObject({ status: 'failed', errorCode: 'TEXT_TTL_EXPIRED', purpose: 'otp' });

    const queuedOnly = randomUUID();
    await handler(snsEvent(JSON.stringify(smsEvent('TEXT_QUEUED', queuedOnly, Date.now()))), context());
    expect(await store.get(sms(queuedOnly))).toBeUndefined();
  });

  it('skips malformed and unknown events without throwing, and still records the good ones beside them', async () => {
    const good = randomUUID();
    const unknown = randomUUID();
    const event = snsEvent(
      'not json',
      '',
      'null',
      '[]',
      JSON.stringify({ eventType: 'TEXT_DELIVERED' }),
      JSON.stringify({ messageId: randomUUID(), eventType: 42 }),
      JSON.stringify(smsEvent('VOICE_COMPLETED', randomUUID(), Date.now())),
      JSON.stringify(smsEvent('TEXT_SOMETHING_NEW', unknown, Date.now())),
      JSON.stringify(smsEvent('TEXT_DELIVERED', good, Date.now(), { eventTimestamp: 'yesterday' })),
    );
    event.Records.push({ ...event.Records[0]!, Sns: undefined } as never);
    await expect(handler(event, context())).resolves.toBeUndefined();
    await expect(handler({} as SNSEvent, context())).resolves.toBeUndefined();
    expect(await store.get(sms(good))).toMatchObject({ status: 'delivered' });
    expect(await store.get(sms(unknown))).toBeUndefined();
  });

  it('throws when DynamoDB fails, so that Lambda tries the event again', async () => {
    const broken = makeSmsHandler({
      deliveries: makeDeliveryStore(localDb(stack.dynamoDbEndpoint), 'no-such-table'),
      clock: () => new Date(),
    });
    await expect(
      broken(snsEvent(JSON.stringify(smsEvent('TEXT_DELIVERED', randomUUID(), Date.now()))), context()),
    ).rejects.toThrow();
  });
});
