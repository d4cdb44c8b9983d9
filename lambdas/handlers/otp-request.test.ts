import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CaptchaVerifier } from '../adapters/captcha';
import type { OtpSendOptions } from '../lib/otp-channels';
import { type CallOptions, ANSWER_MARGIN_MS } from '../lib/time-budget';
import type * as OtpRequest from './otp-request';

// The code request's one deadline with stand-in ports: what each call is given of it. The
// sandboxes' hanging providers are in test/integration/otp-time-budget.test.ts.
let module: typeof OtpRequest;

beforeAll(async () => {
  // Importing the module wires nothing (lambdas/lib/wiring.ts). Local mode: no origin
  // token is asked of the request (lambdas/lib/front-door.ts); logs and metrics are silenced.
  vi.stubEnv('APP_MODE', 'local');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
  module = await import('./otp-request');
});

const DEADLINE_MS = 8500;

function setup(options: { captchaMs?: number } = {}) {
  const calls = {
    captcha: [] as (CallOptions | undefined)[],
    saved: 0,
    sends: [] as OtpSendOptions[],
    released: [] as string[],
  };
  const captcha: CaptchaVerifier = {
    async verify(_token, _ip, callOptions) {
      calls.captcha.push(callOptions);
      if (options.captchaMs) await new Promise((resolve) => setTimeout(resolve, options.captchaMs));
      return true;
    },
  };
  const handler = module.makeHandler({
    captcha,
    limiter: {
      hit: () => Promise.resolve({ allowed: true }),
      releaseCooldown: (key) => {
        calls.released.push(key);
        return Promise.resolve();
      },
    },
    otps: {
      save: () => {
        calls.saved += 1;
        return Promise.resolve();
      },
      takeAttempt: () => Promise.reject(new Error('not used')),
      remove: () => Promise.reject(new Error('not used')),
    },
    channels: () => ({
      hasSms: true,
      send: (_phone, _code, sendOptions) => {
        calls.sends.push(sendOptions);
        return Promise.resolve({ channel: 'whatsapp', messageId: 'wamid.1', fellBack: false });
      },
    }),
    deliveries: () => ({ recordAccepted: () => Promise.resolve(), get: () => Promise.resolve(undefined) }),
    keys: () => Promise.resolve({ otpHashKey: 'k'.repeat(32), verificationSigningKey: 's'.repeat(32) }),
    clock: () => new Date(),
    mode: 'local',
    settings: {
      ttlSeconds: 300,
      resendSeconds: 60,
      maxPerHour: 5,
      maxPerDay: 10,
      maxPerIpPerHour: 2000,
      smsOfferAfterSeconds: 30,
      deadlineMs: DEADLINE_MS,
    },
  });
  return { handler, calls };
}

const event = {
  version: '2.0',
  routeKey: 'POST /api/otp/request',
  rawPath: '/api/otp/request',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ mobile: '9876543210', captchaToken: 'dev.send_otp.0.9' }),
  isBase64Encoded: false,
  requestContext: { requestId: 'r1', http: { method: 'POST', sourceIp: '203.0.113.9' } },
} as unknown as APIGatewayProxyEventV2;

/** A Lambda context with `remainingMs` left when the request starts. */
function contextWith(remainingMs: number): Context {
  const started = Date.now();
  return {
    awsRequestId: 'a1',
    getRemainingTimeInMillis: () => remainingMs - (Date.now() - started),
  } as unknown as Context;
}

const invoke = async (handler: ReturnType<typeof setup>['handler'], context: Context) =>
  (await handler(event, context)) as { statusCode: number; body: string };

describe('the code request: one deadline for the whole request', () => {
  it('gives the captcha what the deadline leaves less the sends’ reserve, and the sends the deadline', async () => {
    const { handler, calls } = setup();
    const started = Date.now();
    const answer = await invoke(handler, contextWith(10_000));
    expect(answer.statusCode).toBe(200);
    const [captchaCall] = calls.captcha;
    expect(captchaCall?.timeoutMs).toBeLessThanOrEqual(DEADLINE_MS - module.SEND_RESERVE_MS);
    expect(captchaCall?.timeoutMs).toBeGreaterThan(DEADLINE_MS - module.SEND_RESERVE_MS - 200);
    const [send] = calls.sends;
    expect(send?.deadline).toBeGreaterThanOrEqual(started + DEADLINE_MS - 50);
    expect(send?.deadline).toBeLessThanOrEqual(Date.now() + DEADLINE_MS);
  });

  it('after a slow cold start, sets the deadline by what Lambda has left, not by the budget', async () => {
    const { handler, calls } = setup();
    const started = Date.now();
    // A cold start spent 4 s before the handler ran: 6 s of the function's 10 s are left.
    await invoke(handler, contextWith(6000));
    const [send] = calls.sends;
    expect(send?.deadline).toBeLessThanOrEqual(Date.now() + 6000 - ANSWER_MARGIN_MS);
    expect(send?.deadline).toBeGreaterThanOrEqual(started + 6000 - ANSWER_MARGIN_MS - 50);
    // 4.5 s of deadline: the captcha gets half of it, as the reserve would leave it less.
    expect(calls.captcha[0]?.timeoutMs).toBeLessThanOrEqual((6000 - ANSWER_MARGIN_MS) / 2);
    expect(calls.captcha[0]?.timeoutMs).toBeGreaterThan((6000 - ANSWER_MARGIN_MS) / 2 - 200);
  });

  it('stores no code it has no time left to send: SERVICE_BUSY, and the resend cooldown is given back', async () => {
    const { handler, calls } = setup({ captchaMs: 700 });
    // 2 s left: 0.5 s of deadline, which the captcha spends whole.
    const answer = await invoke(handler, contextWith(2000));
    expect(answer.statusCode).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'SERVICE_BUSY', retryAfterSeconds: 2 } });
    expect(calls.saved).toBe(0);
    expect(calls.sends).toEqual([]);
    expect(calls.released).toEqual(['otp#919876543210']);
  });
});
