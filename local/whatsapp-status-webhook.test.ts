import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readBody, startServer, type RunningServer } from './http-util';
import { startWhatsAppSandbox, type WhatsAppSandbox } from './whatsapp-sandbox';
import { otpMessage, postMessage, testPhoneNumberId, testToken } from './whatsapp-test-requests';

const token = testToken;
const phoneNumberId = testPhoneNumberId;
const appSecret = 'test-app-secret';

interface Received {
  raw: string;
  signature: string | undefined;
  body: {
    object: string;
    entry: {
      id: string;
      changes: {
        field: string;
        value: {
          messaging_product: string;
          metadata: { display_phone_number: string; phone_number_id: string };
          statuses: {
            id: string;
            status: string;
            timestamp: string;
            recipient_id: string;
            pricing?: { category: string };
            errors?: { code: number; title: string; error_data: { details: string } }[];
          }[];
        };
      }[];
    }[];
  };
}

let receiver: RunningServer;
let received: Received[] = [];
let answer = 200;
let sandbox: WhatsAppSandbox;
const logged: string[] = [];

beforeAll(async () => {
  receiver = await startServer(0, async (req, res) => {
    const raw = await readBody(req);
    received.push({
      raw,
      signature: req.headers['x-hub-signature-256'] as string | undefined,
      body: JSON.parse(raw) as Received['body'],
    });
    res.writeHead(answer).end();
  });
  sandbox = await startWhatsAppSandbox({
    port: 0,
    accessToken: token,
    phoneNumberId,
    deliveredAfterMs: 40,
    webhook: { url: `${receiver.url}/api/whatsapp/webhook`, appSecret },
    decisionTemplates: { approved: 'decision_approved', rejected: 'decision_rejected' },
    log: (line) => logged.push(line),
  });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
beforeEach(() => {
  sandbox.reset();
  received = [];
  answer = 200;
});

const post = (body: unknown) =>
  postMessage<{ messages?: { id: string }[]; error?: { code: number } }>(sandbox.url, body);

const waitUntil = async (check: () => boolean, ms = 5000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const statusOf = (r: Received) => r.body.entry[0]?.changes[0]?.value.statuses[0];

describe('WhatsApp sandbox status callbacks', () => {
  it('posts sent then delivered, in Meta’s body, signed with the app secret', async () => {
    const { json } = await post(otpMessage('919876543210'));
    const id = json.messages?.[0]?.id;
    await waitUntil(() => received.length === 2);
    expect(received.map((r) => statusOf(r)?.status)).toEqual(['sent', 'delivered']);

    for (const r of received) {
      const expected = Buffer.from(`sha256=${createHmac('sha256', appSecret).update(r.raw).digest('hex')}`);
      expect(r.signature).toBeDefined();
      expect(timingSafeEqual(Buffer.from(r.signature ?? ''), expected)).toBe(true);
      expect(r.body.object).toBe('whatsapp_business_account');
      expect(r.body.entry[0]?.changes[0]?.field).toBe('messages');
      expect(r.body.entry[0]?.changes[0]?.value).toMatchObject({
        messaging_product: 'whatsapp',
        metadata: { phone_number_id: phoneNumberId },
      });
      expect(statusOf(r)).toMatchObject({ id, recipient_id: '919876543210', pricing: { category: 'authentication' } });
      expect(statusOf(r)?.timestamp).toMatch(/^\d{10}$/);
    }
    expect(sandbox.messages()[0]?.status).toBe('delivered');
    // The receiver has both; the sandbox notes each answer once its POST resolves.
    await waitUntil(() => sandbox.callbacks().length === 2);
    expect(sandbox.callbacks().map((c) => [c.status, c.result])).toEqual([
      ['sent', 200],
      ['delivered', 200],
    ]);
  });

  it('never-deliver: sent, and nothing after', async () => {
    sandbox.failNext({ mode: 'never-deliver' });
    expect((await post(otpMessage('919876543210'))).status).toBe(200);
    await waitUntil(() => received.length === 1);
    await new Promise((r) => setTimeout(r, 150)); // well past deliveredAfterMs
    expect(received.map((r) => statusOf(r)?.status)).toEqual(['sent']);
    expect(sandbox.messages()[0]?.status).toBe('sent');
  });

  it('recipient-async: accepted with 200, then failed with 131026 in errors[]', async () => {
    sandbox.failNext({ mode: 'recipient-async' });
    expect((await post(otpMessage('919876543210'))).status).toBe(200);
    await waitUntil(() => received.length === 1);
    expect(statusOf(received[0] as Received)).toMatchObject({
      status: 'failed',
      errors: [{ code: 131026, title: 'Message undeliverable' }],
    });
    expect(statusOf(received[0] as Received)?.pricing).toBeUndefined();
    expect(sandbox.messages()[0]).toMatchObject({ status: 'failed', errorCode: 131026 });
  });

  it('a webhook that fails or is down changes nothing for the sender', async () => {
    answer = 401;
    expect((await post(otpMessage('919876543210'))).status).toBe(200);
    await waitUntil(() => sandbox.callbacks().length === 2);
    expect(sandbox.callbacks().map((c) => c.result)).toEqual([401, 401]);
    expect(logged.some((line) => line.includes('answered 401'))).toBe(true);

    sandbox.reset();
    sandbox.setWebhook({ url: 'http://127.0.0.1:1/nowhere', appSecret });
    try {
      expect((await post(otpMessage('919876543211'))).status).toBe(200);
      await waitUntil(() => sandbox.callbacks().length === 2);
      expect(sandbox.callbacks().map((c) => c.result)).toEqual(['error', 'error']);
      expect(sandbox.messages()[0]?.status).toBe('delivered');
    } finally {
      sandbox.setWebhook({ url: `${receiver.url}/api/whatsapp/webhook`, appSecret });
    }
  });

  it('knows the decision templates: body parameters, en and ta only', async () => {
    const decision = (name: string, language: string) => ({
      messaging_product: 'whatsapp',
      to: '919876543212',
      type: 'template',
      template: {
        name,
        language: { code: language },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Priya' }] }],
      },
    });
    expect((await post(decision('decision_approved', 'ta'))).status).toBe(200);
    expect((await post(decision('decision_rejected', 'en'))).status).toBe(200);
    const wrongLanguage = await post(decision('decision_approved', 'hi'));
    expect(wrongLanguage.status).toBe(404);
    expect(wrongLanguage.json.error?.code).toBe(132001);
    expect(sandbox.messages().map((m) => [m.kind, m.decision, m.language])).toEqual([
      ['decision', 'rejected', 'en'],
      ['decision', 'approved', 'ta'],
    ]);
  });
});
