import { afterAll, beforeAll, expect, it } from 'vitest';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';

// A stage that sends codes by SMS only, with no WhatsApp settings at all (the stack gives
// the functions empty WhatsApp credentials): the whole flow works by SMS.
let stack: LocalStack;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  stack = await startLocalStack(
    testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false', LOCAL_OTP_CHANNELS: 'sms' }),
  );
}, 60_000);
afterAll(() => stack?.stop());

it('sends the code by SMS, verifies it and takes the application; WhatsApp is never called', async () => {
  const mobile = uniqueMobile();
  const sent = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha, language: 'en' });
  expect(sent).toMatchObject({ status: 200, body: { channel: 'sms', fellBack: false, smsOfferAfterSeconds: null } });
  const sms = stack.sms.messages().find((m) => m.to === `91${mobile}`)!;
  expect(sms.body).toContain(sms.code!);
  const status = await post(stack.apiUrl, '/api/otp/status', { mobile, handle: sent.body.deliveryHandle });
  expect(status).toMatchObject({ status: 200, body: { channel: 'sms', smsOffer: false } });
  const verified = await post(stack.apiUrl, '/api/otp/verify', { mobile, code: sms.code });
  expect(verified.status).toBe(200);
  const submitted = await post(
    stack.apiUrl,
    '/api/applications',
    submitBody(verified.body.verificationToken as string),
  );
  expect(submitted.status).toBe(201);
  expect(stack.whatsApp.messages().filter((m) => m.to === `91${mobile}` && m.kind === 'otp')).toHaveLength(0);
});

it('a refused SMS is a translated error, and a switch has nowhere to go', async () => {
  stack.sms.failNext({ times: 1, mode: 'http500' });
  const mobile = uniqueMobile();
  const refused = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(refused).toMatchObject({ status: 502, body: { error: { code: 'SMS_SEND_FAILED' } } });
  const sent = await post(stack.apiUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(sent.status).toBe(200);
  const switched = await post(stack.apiUrl, '/api/otp/request', {
    mobile,
    captchaToken: goodCaptcha,
    switchToSms: sent.body.deliveryHandle,
  });
  expect(switched).toMatchObject({ status: 409, body: { error: { code: 'SMS_SWITCH_NOT_ALLOWED' } } });
});
