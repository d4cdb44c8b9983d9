import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { goodCaptcha, post, uniqueMobile } from '../support/public-flow';

// A stage with WhatsApp first and SMS as the fallback (docs/MESSAGING.md), through the
// local API adapter: the WhatsApp sandbox refuses as Meta does, the SMS sandbox speaks
// End User Messaging SMS's protocol, and delivery statuses come back through the real
// webhook route and the SMS events consumer.
let stack: LocalStack;
let api: string;
const OFFER_SECONDS = 2;

beforeAll(async () => {
  process.env.WHATSAPP_TIMEOUT_MS = '500';
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  stack = await startLocalStack(
    testStackConfig({
      LOCAL_PERSISTENCE: 'memory',
      LOCAL_WEB: 'false',
      LOCAL_OTP_CHANNELS: 'whatsapp-then-sms',
      LOCAL_SMS_OFFER_AFTER_SECONDS: String(OFFER_SECONDS),
    }),
  );
  api = stack.apiUrl;
}, 60_000);
afterAll(() => stack?.stop());
afterEach(() => {
  process.env.LOCAL_CLOCK_OFFSET_MS = '0';
  stack.whatsApp.reset();
  stack.sms.reset();
});

interface Sent {
  sentTo: string;
  channel: 'whatsapp' | 'sms';
  fellBack: boolean;
  deliveryHandle: string;
  smsOfferAfterSeconds: number | null;
}

const requestOtp = (mobile: string, extra: Record<string, unknown> = {}) =>
  post(api, '/api/otp/request', { mobile, captchaToken: goodCaptcha, ...extra });
const status = (mobile: string, handle: string) => post(api, '/api/otp/status', { mobile, handle });
const verify = (mobile: string, code: string | undefined) => post(api, '/api/otp/verify', { mobile, code });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusBecomes(mobile: string, handle: string, wanted: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const answer = await status(mobile, handle);
    expect(answer.status).toBe(200);
    if (answer.body.status === wanted) return answer.body;
    await sleep(100);
  }
  throw new Error(`status never became ${wanted}`);
}

describe('WhatsApp first', () => {
  it('sends by WhatsApp, says so, and reports the delivery the webhook recorded', async () => {
    const mobile = uniqueMobile();
    const answer = await requestOtp(mobile);
    expect(answer.status).toBe(200);
    const sent = answer.body as unknown as Sent;
    expect(sent).toMatchObject({
      sentTo: mobile,
      channel: 'whatsapp',
      fellBack: false,
      smsOfferAfterSeconds: OFFER_SECONDS,
    });
    expect(sent.deliveryHandle).not.toContain(mobile);
    const delivered = await statusBecomes(mobile, sent.deliveryHandle, 'delivered');
    expect(delivered).toEqual({ channel: 'whatsapp', status: 'delivered', smsOffer: false });
    expect((await verify(mobile, stack.whatsApp.latestOtp(`91${mobile}`))).status).toBe(200);
  });

  it.each([
    'recipient',
    'throughput',
    'spam-limit',
    'pair-limit',
    'account-blocked',
    'account-locked',
    'http500',
    'timeout',
  ] as const)('WhatsApp refuses (%s): the code goes by SMS at once, and the page is told', async (mode) => {
    stack.whatsApp.failNext({ times: 1, mode });
    const mobile = uniqueMobile();
    const answer = await requestOtp(mobile, { language: 'ta' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ channel: 'sms', fellBack: true, smsOfferAfterSeconds: null });
    const sms = stack.sms.messages().find((m) => m.to === `91${mobile}`);
    // The registered Tamil template, to the character but for the code.
    expect(sms?.body).toMatch(/[\u0B80-\u0BFF]/);
    expect(stack.whatsApp.latestOtp(`91${mobile}`)).toBeUndefined();
    expect((await verify(mobile, stack.sms.latestOtp(`91${mobile}`))).status).toBe(200);
  });

  it('WhatsApp accepts but never delivers: SMS is offered after the configured time, once, with a new code', async () => {
    stack.whatsApp.failNext({ times: 1, mode: 'never-deliver' });
    const mobile = uniqueMobile();
    const sent = (await requestOtp(mobile)).body as unknown as Sent;
    expect(sent.channel).toBe('whatsapp');
    const whatsAppCode = stack.whatsApp.latestOtp(`91${mobile}`);

    expect((await status(mobile, sent.deliveryHandle)).body).toMatchObject({ smsOffer: false });
    const early = await requestOtp(mobile, { switchToSms: sent.deliveryHandle });
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'SMS_SWITCH_NOT_ALLOWED' } } });

    await sleep(OFFER_SECONDS * 1000 + 200);
    expect((await status(mobile, sent.deliveryHandle)).body).toMatchObject({ channel: 'whatsapp', smsOffer: true });
    const switched = await requestOtp(mobile, { switchToSms: sent.deliveryHandle });
    expect(switched).toMatchObject({ status: 200, body: { channel: 'sms', fellBack: false } });
    // One switch per WhatsApp send: the handle does not buy a stream of SMS.
    const again = await requestOtp(mobile, { switchToSms: sent.deliveryHandle });
    expect(again).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });

    // The newest code is the SMS one; the WhatsApp code is void.
    expect((await verify(mobile, whatsAppCode)).body.error?.code).toBe('OTP_INVALID');
    expect((await verify(mobile, stack.sms.latestOtp(`91${mobile}`))).status).toBe(200);
  });

  it('a handle works only with its own number, and a forged one is refused', async () => {
    const mobile = uniqueMobile();
    const sent = (await requestOtp(mobile)).body as unknown as Sent;
    for (const [m, handle] of [
      [uniqueMobile(), sent.deliveryHandle],
      [mobile, `${sent.deliveryHandle}x`],
      [mobile, 'v1.e30.AAAA'],
    ] as const) {
      expect(await status(m, handle)).toMatchObject({
        status: 400,
        body: { error: { code: 'DELIVERY_HANDLE_INVALID' } },
      });
    }
  });

  it('counts the limits per number across channels', async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < 5; i++) {
      if (i % 2) stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
      expect((await requestOtp(mobile)).status).toBe(200);
      process.env.LOCAL_CLOCK_OFFSET_MS = String(Number(process.env.LOCAL_CLOCK_OFFSET_MS ?? 0) + 61_000);
    }
    // Both channels carried this number's codes, and their sends count as one.
    const to = `91${mobile}`;
    expect(stack.whatsApp.messages().filter((m) => m.kind === 'otp' && m.to === to)).toHaveLength(3);
    expect(stack.sms.messages().filter((m) => m.to === to)).toHaveLength(2);
    expect(await requestOtp(mobile)).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
  });

  it('when both channels fail the visitor may try again at once (the cooldown is given back)', async () => {
    stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
    stack.sms.failNext({ times: 1, mode: 'throttled' });
    const mobile = uniqueMobile();
    expect(await requestOtp(mobile)).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_BUSY' } } });
    expect(await requestOtp(mobile)).toMatchObject({ status: 200, body: { channel: 'whatsapp' } });
  });

  it('reports an SMS delivered from the configuration set events', async () => {
    stack.whatsApp.failNext({ times: 1, mode: 'recipient' });
    const mobile = uniqueMobile();
    const sent = (await requestOtp(mobile)).body as unknown as Sent;
    expect(sent.channel).toBe('sms');
    expect(await statusBecomes(mobile, sent.deliveryHandle, 'delivered')).toEqual({
      channel: 'sms',
      status: 'delivered',
      smsOffer: false,
    });
  });
});
