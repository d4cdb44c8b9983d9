import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testStackConfig } from '../support/test-stack';
import { localDynamoClient } from '../../local/dynamodb';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { type ApiResult, goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';

// The public flow's handlers through the local API adapter, against DynamoDB Local,
// the WhatsApp sandbox and the captcha stand-in: the whole local stack minus the SPA.
let stack: LocalStack;
let api: string;

beforeAll(async () => {
  process.env.WHATSAPP_TIMEOUT_MS = '500';
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  // WhatsApp alone, as the flow first was: test/integration/otp-channels.test.ts covers SMS and the fallback.
  stack = await startLocalStack(
    testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false', LOCAL_OTP_CHANNELS: 'whatsapp' }),
  );
  api = stack.apiUrl;
}, 60_000);
afterAll(() => stack?.stop());
afterEach(() => {
  process.env.LOCAL_CLOCK_OFFSET_MS = '0';
});

const moveClock = (seconds: number) => {
  process.env.LOCAL_CLOCK_OFFSET_MS = String(Number(process.env.LOCAL_CLOCK_OFFSET_MS ?? 0) + seconds * 1000);
};
const requestOtp = (mobile: string, captchaToken = goodCaptcha) =>
  post(api, '/api/otp/request', { mobile, captchaToken });
/** The send's handle, as the page keeps it: with it the check says how a code is doing. */
const handles = new Map<string, string>();
const requestOtpKeepingHandle = async (mobile: string, captchaToken = goodCaptcha) => {
  const result = await requestOtp(mobile, captchaToken);
  if (result.status === 200) handles.set(mobile, result.body.deliveryHandle as string);
  return result;
};
/** As the page does: with the handle of the number's last send. */
const verifyOtp = (mobile: string, code: string) =>
  post(api, '/api/otp/verify', { mobile, code, handle: handles.get(mobile) });
/** As a stranger would: the number and a code, no handle. */
const verifyAsStranger = (mobile: string, code: string) => post(api, '/api/otp/verify', { mobile, code });
const codeFor = (mobile: string) => stack.whatsApp.latestOtp(`91${mobile}`);
const otpCount = () => stack.whatsApp.messages().filter((m) => m.kind === 'otp').length;
const wrong = (code: string) => String(((Number(code) - 100_000 + 1) % 900_000) + 100_000);

/**
 * A send's answer as bytes, with the two parts that must differ between two numbers set
 * aside: the number echoed back and the opaque handle (encrypted, random; its length kept).
 */
function sameButNumberAndHandle(result: ApiResult, mobile: string): string {
  const handle = String(result.body.deliveryHandle);
  return JSON.stringify({
    status: result.status,
    body: { ...result.body, sentTo: result.body.sentTo === mobile, deliveryHandle: handle.length },
  });
}

async function verified(mobile = uniqueMobile()): Promise<{ mobile: string; token: string }> {
  expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);
  const result = await verifyOtp(mobile, codeFor(mobile)!);
  expect(result.status).toBe(200);
  return { mobile, token: result.body.verificationToken as string };
}

describe('OTP request', () => {
  it('sends the auth2 template with the code and stores only a keyed hash', async () => {
    const mobile = uniqueMobile();
    const result = await requestOtpKeepingHandle(mobile);
    expect(result).toMatchObject({ status: 200, body: { sentTo: mobile, expiresInSeconds: 300 } });
    expect(JSON.stringify(result.body)).not.toMatch(/\b\d{6}\b/);
    const message = stack.whatsApp.messages().find((m) => m.kind === 'otp' && m.to === `91${mobile}`)!;
    expect(message).toMatchObject({ to: `91${mobile}`, kind: 'otp', template: 'auth2', language: 'en' });
    expect(message.code).toMatch(/^[1-9]\d{5}$/);

    const client = localDynamoClient(stack.dynamoDbEndpoint);
    const scan = await client.send(new ScanCommand({ TableName: stack.tableNames.otps }));
    client.destroy();
    const stored = JSON.stringify(scan.Items);
    expect(stored).toContain(`91${mobile}`);
    expect(stored).not.toContain(message.code);
  });

  it.each([
    ['dev-fail', 'no valid token'],
    ['dev.send_otp.0.1', 'a score below the threshold'],
    ['dev.login.0.9', 'another action'],
  ])('refuses captcha token %s (%s) before sending', async (token) => {
    const before = otpCount();
    const result = await requestOtpKeepingHandle(uniqueMobile(), token);
    expect(result).toMatchObject({
      status: 400,
      body: {
        error: { code: 'CAPTCHA_FAILED', message: 'The security check failed. Please reload the page and try again.' },
      },
    });
    expect(otpCount()).toBe(before);
  });

  it('refuses a number that is not an Indian mobile number, saying which rule it breaks', async () => {
    const result = await requestOtpKeepingHandle('5123456789');
    expect(result).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', fields: { mobile: 'INVALID_PHONE_START' } } },
    });
    expect((await requestOtpKeepingHandle('98765')).body.error.fields).toEqual({ mobile: 'INVALID_PHONE' });
  });

  it('allows one send per minute, five in any 60 minutes, ten in any 24 hours, and says when to try again', async () => {
    // Start two minutes before a clock hour: the five sends straddle it, as a fixed window would not count them.
    const hourMs = 3_600_000;
    const now = Date.now() + Number(process.env.LOCAL_CLOCK_OFFSET_MS ?? 0);
    moveClock((Math.ceil(now / hourMs) * hourMs - now) / 1000 - 120);

    const mobile = uniqueMobile();
    expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);
    const tooSoon = await requestOtpKeepingHandle(mobile);
    expect(tooSoon).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(tooSoon.body.error.retryAfterSeconds).toBeGreaterThan(55);
    expect(tooSoon.body.error.retryAfterSeconds).toBeLessThanOrEqual(60);

    for (let i = 2; i <= 5; i++) {
      moveClock(61);
      expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);
    }
    // Past the clock hour now, and still five in the last 60 minutes: the sixth waits for the first to leave.
    moveClock(61);
    const overHour = await requestOtpKeepingHandle(mobile);
    expect(overHour).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    // The first send's hour, less the real seconds the requests themselves took.
    const wait = overHour.body.error.retryAfterSeconds!;
    expect(wait).toBeLessThanOrEqual(3600 - 5 * 61 + 1);
    expect(wait).toBeGreaterThan(3600 - 5 * 61 - 15);
    moveClock(wait - 5);
    expect((await requestOtpKeepingHandle(mobile)).status).toBe(429);
    moveClock(6);
    expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);

    // Ten in any 24 hours: four more an hour later, then nothing for the rest of the first send's day.
    moveClock(3600);
    for (let i = 7; i <= 10; i++) {
      expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);
      moveClock(61);
    }
    moveClock(3600);
    const overDay = await requestOtpKeepingHandle(mobile);
    expect(overDay).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(overDay.body.error.retryAfterSeconds).toBeGreaterThan(3600);
    expect(overDay.body.error.retryAfterSeconds).toBeLessThan(86_400 - 3 * 3600);
  });

  it.each([
    [
      'phone-number-id',
      'WHATSAPP_INVALID_PHONE_NUMBER_ID',
      'Codes cannot be sent by WhatsApp right now. Please try again in a few minutes.',
    ],
    ['timeout', 'NETWORK_ERROR', 'Network error. Please try again.'],
    ['http500', 'WHATSAPP_SEND_FAILED', undefined],
    [
      'recipient',
      'WHATSAPP_UNDELIVERABLE',
      'This number does not seem to have WhatsApp. Check the number, or get the code by SMS.',
    ],
    ['throughput', 'WHATSAPP_BUSY', undefined],
  ] as const)('maps a WhatsApp %s failure to %s, never the provider text', async (mode, code, message) => {
    stack.whatsApp.failNext({ times: 1, mode });
    const result = await requestOtpKeepingHandle(uniqueMobile());
    expect(result.status).toBe(code === 'WHATSAPP_BUSY' ? 503 : 502);
    expect(result.body.error.message).not.toMatch(/#\d{3,}|undeliverable|Something went wrong/);
    // Neither the provider's text nor its code: those are for the log and the metric.
    expect(result.body.error).not.toHaveProperty('providerCode');
    expect(JSON.stringify(result.body)).not.toMatch(/13[01]\d{3}|#100\b|error_subcode/);
    expect(result.body.error.code).toBe(code);
    if (message) expect(result.body.error.message).toBe(message);
    else expect(result.body.error.message).not.toBe('');
  });
});

describe('OTP verify', () => {
  it('counts wrong guesses and accepts the right code once', async () => {
    const mobile = uniqueMobile();
    await requestOtpKeepingHandle(mobile);
    const code = codeFor(mobile)!;
    const miss = await verifyOtp(mobile, wrong(code));
    expect(miss).toMatchObject({
      status: 400,
      body: { error: { code: 'OTP_INVALID', attemptsLeft: 4, message: 'Invalid OTP. Please try again.' } },
    });
    const hit = await verifyOtp(mobile, code);
    expect(hit.status).toBe(200);
    expect(typeof hit.body.verificationToken).toBe('string');
    // Spent: the same answer as a wrong code, with no guesses to count.
    expect((await verifyOtp(mobile, code)).body.error).toEqual({
      code: 'OTP_INVALID',
      message: 'Invalid OTP. Please try again.',
    });
  });

  it('gives ten simultaneous checks of the right code exactly one verification', async () => {
    const mobile = uniqueMobile();
    await requestOtpKeepingHandle(mobile);
    const code = codeFor(mobile)!;
    const checks = await Promise.all(Array.from({ length: 10 }, () => verifyOtp(mobile, code)));
    expect(checks.filter((c) => c.status === 200)).toHaveLength(1);
    // The others hear that the code is spent (OTP_INVALID), except those that came after
    // the five compared checks (every check counts, right or wrong: "at most five are
    // compared", below) while the winner had not yet deleted the code: they hear it is
    // void. Which of the two depends only on the order DynamoDB applied them in.
    const refusals = checks.filter((c) => c.status !== 200).map((c) => c.body.error.code);
    expect(refusals.filter((r) => r !== 'OTP_INVALID' && r !== 'OTP_TOO_MANY_ATTEMPTS')).toEqual([]);
    expect(refusals.filter((r) => r === 'OTP_TOO_MANY_ATTEMPTS').length).toBeLessThanOrEqual(10 - 5);
  });

  it('tells a stranger nothing: no code, a wrong code, a void or expired one all answer alike', async () => {
    const pending = uniqueMobile();
    await requestOtpKeepingHandle(pending);
    const code = codeFor(pending)!;
    const none = await verifyAsStranger(uniqueMobile(), '123456');
    const wrongGuess = await verifyAsStranger(pending, wrong(code));
    expect(none).toEqual(wrongGuess);
    expect(none).toEqual({
      status: 400,
      body: { error: { code: 'OTP_INVALID', message: 'Invalid OTP. Please try again.' } },
    });
    // Another number's handle is no better than none.
    const other = uniqueMobile();
    await requestOtpKeepingHandle(other);
    const borrowed = await post(api, '/api/otp/verify', {
      mobile: pending,
      code: wrong(code),
      handle: handles.get(other),
    });
    expect(borrowed).toEqual(none);
    // Void after five guesses, and then expired: still the same answer for the stranger.
    for (let i = 0; i < 3; i++) await verifyAsStranger(pending, wrong(code));
    expect(await verifyAsStranger(pending, code)).toEqual(none);
    expect((await verifyOtp(pending, code)).body.error.code).toBe('OTP_TOO_MANY_ATTEMPTS');
    moveClock(301);
    expect(await verifyAsStranger(pending, code)).toEqual(none);
  });

  it('limits code checks per number, whether a code is pending or not', async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < 30; i++) expect((await verifyAsStranger(mobile, '123456')).status).toBe(400);
    const limited = await verifyAsStranger(mobile, '123456');
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(limited.body.error.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('says at the fifth wrong guess that the code is void, and keeps saying it for the right digits', async () => {
    const mobile = uniqueMobile();
    await requestOtpKeepingHandle(mobile);
    const code = codeFor(mobile)!;
    for (let i = 0; i < 4; i++) expect((await verifyOtp(mobile, wrong(code))).body.error.code).toBe('OTP_INVALID');
    const fifth = await verifyOtp(mobile, wrong(code));
    expect(fifth).toMatchObject({ status: 400, body: { error: { code: 'OTP_TOO_MANY_ATTEMPTS', attemptsLeft: 0 } } });
    // When a new code may be sent: the rest of the one-minute wait.
    expect(fifth.body.error.retryAfterSeconds).toBeGreaterThan(45);
    expect(fifth.body.error.retryAfterSeconds).toBeLessThanOrEqual(60);
    for (const guess of [code, code]) {
      const after = await verifyOtp(mobile, guess);
      expect(after).toMatchObject({ status: 400, body: { error: { code: 'OTP_TOO_MANY_ATTEMPTS' } } });
    }
    moveClock(61);
    expect((await verifyOtp(mobile, code)).body.error.retryAfterSeconds).toBeUndefined();
    // A new code replaces the void one.
    expect((await requestOtpKeepingHandle(mobile)).status).toBe(200);
    expect((await verifyOtp(mobile, codeFor(mobile)!)).status).toBe(200);
  });

  it('counts every concurrent guess: at most five are compared', async () => {
    const mobile = uniqueMobile();
    await requestOtpKeepingHandle(mobile);
    const code = codeFor(mobile)!;
    const guesses = await Promise.all(Array.from({ length: 20 }, () => verifyOtp(mobile, wrong(code))));
    const codes = guesses.map((g) => g.body.error?.code);
    expect(codes.filter((c) => c === 'OTP_INVALID')).toHaveLength(4);
    expect(codes.filter((c) => c === 'OTP_TOO_MANY_ATTEMPTS')).toHaveLength(16);
    expect((await verifyOtp(mobile, code)).status).not.toBe(200);
  });

  it('refuses an expired code and deletes it', async () => {
    const mobile = uniqueMobile();
    await requestOtpKeepingHandle(mobile);
    moveClock(301);
    expect((await verifyOtp(mobile, codeFor(mobile)!)).body.error).toMatchObject({
      code: 'OTP_EXPIRED',
      message: 'OTP has expired. Please request a new one.',
    });
    expect((await verifyOtp(mobile, codeFor(mobile)!)).body.error.code).toBe('OTP_INVALID');
  });
});

describe('submit', () => {
  it('stores one application with its consent, and says "already registered" only after the next right code', async () => {
    const { mobile, token } = await verified();
    const result = await post(api, '/api/applications', submitBody(token));
    expect(result.status).toBe(201);
    const id = result.body.id as string;

    const client = localDynamoClient(stack.dynamoDbEndpoint);
    const scan = await client.send(new ScanCommand({ TableName: stack.tableNames.applications }));
    client.destroy();
    const item = scan.Items?.find((i) => i.id?.S === id);
    expect(item).toMatchObject({
      phone_number: { S: `91${mobile}` },
      application_status: { S: 'pending' },
      want_to_volunteer: { BOOL: false },
      want_to_join_and_volunteer: { BOOL: false },
      consent: { M: { language: { S: 'en' }, terms_version: { S: expect.any(String) as unknown } } },
    });

    // The send answers as for any number, and the code goes: nobody learns from it who applied.
    moveClock(61); // The number's one-minute wait since its first code.
    const fresh = uniqueMobile();
    const before = otpCount();
    const [registered, unknown] = await Promise.all([requestOtp(mobile), requestOtp(fresh)]);
    expect(otpCount()).toBe(before + 2);
    expect(sameButNumberAndHandle(registered, mobile)).toBe(sameButNumberAndHandle(unknown, fresh));

    const check = await verifyAsStranger(mobile, codeFor(mobile)!);
    expect(check).toEqual({
      status: 409,
      body: {
        error: {
          code: 'ALREADY_REGISTERED',
          message: 'You have already registered with this phone number.',
          // The number was proved: its verification comes along for "Get my card" (issue 20).
          verificationToken: expect.any(String) as unknown,
          expiresAt: expect.any(String) as unknown,
        },
      },
    });
    // A submit with it is refused all the same.
    const proved = (check.body as unknown as { error: { verificationToken: string } }).error.verificationToken;
    expect((await post(api, '/api/applications', submitBody(proved))).status).toBe(409);
    // The code is spent: it gives nothing a second time.
    expect((await verifyAsStranger(mobile, codeFor(mobile)!)).body.error.code).toBe('OTP_INVALID');
  });

  it('spends the verification: the same token cannot submit twice', async () => {
    const { token } = await verified();
    expect((await post(api, '/api/applications', submitBody(token))).status).toBe(201);
    const again = await post(api, '/api/applications', submitBody(token));
    expect(again.status).toBe(409);
  });

  it('refuses a forged or missing verification', async () => {
    const { token } = await verified();
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await post(api, '/api/applications', submitBody(forged))).body.error.code).toBe('VERIFICATION_REQUIRED');
    expect((await post(api, '/api/applications', { application: {} })).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an applicant under 18 (IST, by year, month and day)', async () => {
    const { token } = await verified();
    const now = new Date(Date.now() + 5.5 * 3600 * 1000);
    const dob = `${now.getUTCFullYear() - 18}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-${String(now.getUTCDate()).padStart(2, '0')}`;
    const tomorrowsEighteen = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate() + 1))
      .toISOString()
      .slice(0, 10);
    const young = await post(api, '/api/applications', submitBody(token, { date_of_birth: tomorrowsEighteen }));
    expect(young).toMatchObject({
      status: 400,
      body: { error: { code: 'UNDER_AGE', fields: { date_of_birth: 'UNDER_AGE' } } },
    });
    expect((await post(api, '/api/applications', submitBody(token, { date_of_birth: dob }))).status).toBe(201);
  });

  it('refuses an alternate number equal to the verified one, and a constituency of another district', async () => {
    const { mobile, token } = await verified();
    const result = await post(
      api,
      '/api/applications',
      submitBody(token, { alternate_phone_number: mobile, assembly_constituency: 'Harbour' }),
    );
    expect(result.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { alternate_phone_number: 'ALTERNATE_PHONE_SAME', assembly_constituency: 'REQUIRED' },
    });
  });

  it('stores exactly one application for 50 simultaneous submits of one number', async () => {
    const { mobile, token } = await verified();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post(api, '/api/applications', submitBody(token))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.body.error.code).toBe('ALREADY_REGISTERED');

    const client = localDynamoClient(stack.dynamoDbEndpoint);
    const scan = await client.send(
      new ScanCommand({
        TableName: stack.tableNames.applications,
        FilterExpression: 'phone_number = :p',
        ExpressionAttributeValues: { ':p': { S: `91${mobile}` } },
      }),
    );
    client.destroy();
    expect(scan.Items).toHaveLength(1);
  });
});
