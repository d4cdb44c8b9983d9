import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWhatsAppSandbox, type WhatsAppSandbox } from './whatsapp-sandbox';
import { otpMessage as otpTemplate, testPhoneNumberId, testToken } from './whatsapp-test-requests';
import { checkTemplate, messageSchema, record } from './whatsapp-messages';

const token = testToken;
const phoneNumberId = testPhoneNumberId;

let sandbox: WhatsAppSandbox;

beforeAll(async () => {
  sandbox = await startWhatsAppSandbox({ port: 0, accessToken: token, phoneNumberId });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
});

// With the recipient type Meta's examples send: the sandbox takes it.
const otpMessage = (to: string, code: string) => ({ ...otpTemplate(to, code), recipient_type: 'individual' });

interface MetaError {
  error: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id: string };
}

async function post(body: unknown, options: { auth?: string | null; id?: string; signal?: AbortSignal } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = options.auth === undefined ? `Bearer ${token}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  const response = await fetch(`${sandbox.url}/v19.0/${options.id ?? phoneNumberId}/messages`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(options.signal && { signal: options.signal }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

describe('WhatsApp Cloud API sandbox', () => {
  it('accepts the auth template, answers as Meta does and records the code', async () => {
    const { status, json } = await post(otpMessage('919876543210', '123456'));
    expect(status).toBe(200);
    const ok = json as {
      messaging_product: string;
      contacts: { input: string; wa_id: string }[];
      messages: { id: string }[];
    };
    expect(ok.messaging_product).toBe('whatsapp');
    expect(ok.contacts).toEqual([{ input: '919876543210', wa_id: '919876543210' }]);
    expect(ok.messages[0]?.id).toMatch(/^wamid\./);

    const [recorded] = sandbox.messages();
    expect(recorded).toMatchObject({
      id: ok.messages[0]?.id,
      channel: 'whatsapp',
      to: '919876543210',
      kind: 'otp',
      code: '123456',
      template: 'auth2',
      language: 'en',
    });
    expect(sandbox.latestOtp('919876543210')).toBe('123456');
  });

  it('records the welcome template with its video, text messages, and lists newest first', async () => {
    await post({
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'welcome_message',
        language: { code: 'en_US' },
        components: [{ type: 'header', parameters: [{ type: 'video', video: { link: 'https://example.org/w.mp4' } }] }],
      },
    });
    await post({ messaging_product: 'whatsapp', to: '919876543210', type: 'text', text: { body: 'hello' } });
    expect(sandbox.messages().map((m) => m.kind)).toEqual(['text', 'welcome']);
    expect(sandbox.messages()[0]).toMatchObject({ body: 'hello' });
    expect(sandbox.messages()[1]).toMatchObject({ language: 'en_US', headerVideoLink: 'https://example.org/w.mp4' });
  });

  it('refuses a wrong or missing token with 401 and code 190', async () => {
    for (const auth of ['Bearer wrong', null]) {
      const { status, json } = await post(otpMessage('919876543210', '123456'), { auth });
      expect(status).toBe(401);
      expect((json as MetaError).error).toMatchObject({ type: 'OAuthException', code: 190 });
      expect((json as MetaError).error.fbtrace_id).toBeTruthy();
    }
    expect(sandbox.messages()).toEqual([]);
  });

  it('refuses an unknown phone number id with code 100, subcode 33', async () => {
    const { status, json } = await post(otpMessage('919876543210', '123456'), { id: '999' });
    expect(status).toBe(400);
    expect((json as MetaError).error).toMatchObject({ type: 'GraphMethodException', code: 100, error_subcode: 33 });
    expect((json as MetaError).error.message).toContain("Object with ID '999' does not exist");
  });

  it('refuses invalid bodies with 400 and code 100', async () => {
    const bad = [
      'not json',
      { ...otpMessage('919876543210', '1'), messaging_product: 'sms' },
      { ...otpMessage('+91 98765', '1') },
      { messaging_product: 'whatsapp', to: '919876543210', type: 'text', text: {} },
      { messaging_product: 'whatsapp', to: '919876543210', type: 'image' },
    ];
    for (const body of bad) {
      const { status, json } = await post(body);
      expect(status).toBe(400);
      expect((json as MetaError).error).toMatchObject({ code: 100 });
      expect((json as MetaError).error.message).toBeTruthy();
    }
    expect(sandbox.messages()).toEqual([]);
  });

  it('refuses an auth template without its code parameters (132000)', async () => {
    const message = otpMessage('919876543210', '123456');
    message.template.components = message.template.components.slice(0, 1);
    const { status, json } = await post(message);
    expect(status).toBe(400);
    expect((json as MetaError).error.code).toBe(132000);
  });

  it.each([
    ['http500', 500, { code: 131000 }],
    ['recipient', 400, { code: 131026, message: '(#131026) Message undeliverable' }],
    ['phone-number-id', 400, { code: 100, error_subcode: 33 }],
    ['throughput', 429, { code: 130429, message: '(#130429) Rate limit hit' }],
    ['spam-limit', 400, { code: 131048, message: '(#131048) Spam rate limit hit' }],
    [
      'pair-limit',
      400,
      { code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' },
    ],
    ['account-blocked', 403, { code: 368, message: '(#368) Temporarily blocked for policies violations' }],
    ['account-locked', 403, { code: 131031, message: '(#131031) Business Account locked' }],
  ] as const)('failNext(%s) answers Meta’s error, then sends again', async (mode, status, error) => {
    sandbox.failNext({ times: 2, mode });
    for (let i = 0; i < 2; i++) {
      const failed = await post(otpMessage('919876543210', '111111'));
      expect(failed.status).toBe(status);
      expect((failed.json as MetaError).error).toMatchObject(error);
    }
    expect((await post(otpMessage('919876543210', '222222'))).status).toBe(200);
    expect(sandbox.messages().map((m) => m.code)).toEqual(['222222']);
  });

  it('timeout mode holds the request until the client gives up', async () => {
    sandbox.failNext({ mode: 'timeout' });
    const started = Date.now();
    await expect(post(otpMessage('919876543210', '111111'), { signal: AbortSignal.timeout(200) })).rejects.toThrow(
      /timeout|aborted/i,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await post(otpMessage('919876543210', '222222'))).status).toBe(200);
  });

  it('close() releases a request held by timeout mode', async () => {
    const other = await startWhatsAppSandbox({ port: 0, accessToken: token, phoneNumberId });
    other.failNext({ mode: 'timeout' });
    const held = fetch(`${other.url}/v19.0/${phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(otpMessage('919876543210', '111111')),
    });
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    await expect(held).rejects.toThrow();
  });

  it('is driven over HTTP by the control API', async () => {
    const control = (path: string, body?: unknown) =>
      fetch(`${sandbox.url}/__sandbox/${path}`, {
        method: body === undefined && path === 'messages' ? 'GET' : 'POST',
        ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
    expect((await control('fail', { mode: 'nonsense' })).status).toBe(400);
    expect((await control('fail', { times: 1, mode: 'http500' })).status).toBe(200);
    expect((await post(otpMessage('919876543210', '111111'))).status).toBe(500);
    expect((await post(otpMessage('919876543210', '333333'))).status).toBe(200);

    const listed = (await (await control('messages')).json()) as { messages: { code?: string }[] };
    expect(listed.messages.map((m) => m.code)).toEqual(['333333']);

    await control('fail', { times: 3, mode: 'recipient' });
    expect((await control('reset', {})).status).toBe(200);
    expect((await post(otpMessage('919876543210', '444444'))).status).toBe(200);
    const after = (await (await control('messages')).json()) as { messages: { code?: string }[] };
    expect(after.messages.map((m) => m.code)).toEqual(['444444']);
  });
});

describe('the withdrawal confirmation template (issue 21)', () => {
  const known = {
    auth: 'auth2',
    welcome: 'welcome_message',
    decisions: undefined,
    withdrawal: { name: 'withdrawal_confirmed', languages: ['en', 'ta'] },
  };
  const message = (code: string, components?: unknown[]) =>
    messageSchema.parse({
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'template',
      template: { name: 'withdrawal_confirmed', language: { code }, ...(components && { components }) },
    });

  it('takes it without parameters in an approved language and records it as `withdrawn`', () => {
    expect(checkTemplate(message('ta'), known)).toBeUndefined();
    expect(record('wamid.1', message('ta'), known, 0)).toMatchObject({
      kind: 'withdrawn',
      template: 'withdrawal_confirmed',
      language: 'ta',
    });
  });

  it('refuses it with a parameter (132000) or in a language it is not approved in (132001)', () => {
    const withName = message('en', [{ type: 'body', parameters: [{ type: 'text', text: 'Kavya' }] }]);
    expect(checkTemplate(withName, known)?.code).toBe(132000);
    expect(checkTemplate(message('en_US'), known)?.code).toBe(132001);
  });
});
