import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaShimScript, type SiteverifyResponse, siteverifyResponseSchema, startCaptchaStandIn } from './captcha';
import type { RunningServer } from './http-util';

let captcha: RunningServer;

beforeAll(async () => {
  captcha = await startCaptchaStandIn({ port: 0, secret: 'the-secret' });
});
afterAll(async () => {
  await captcha.close();
});

async function verify(params: Record<string, string>): Promise<SiteverifyResponse> {
  const response = await fetch(`${captcha.url}/recaptcha/api/siteverify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  expect(response.status).toBe(200);
  return siteverifyResponseSchema.parse(await response.json());
}

describe('captcha stand-in (siteverify)', () => {
  it('accepts a dev token with its action and score', async () => {
    const result = await verify({ secret: 'the-secret', response: 'dev.send_otp.0.9', remoteip: '127.0.0.1' });
    expect(result).toMatchObject({ success: true, action: 'send_otp', score: 0.9, hostname: 'localhost' });
    expect(Number.isNaN(Date.parse(result.challenge_ts ?? ''))).toBe(false);
    expect((await verify({ secret: 'the-secret', response: 'dev.send_otp.0.1' })).score).toBe(0.1);
  });

  it('refuses bad tokens', async () => {
    for (const response of ['dev-fail', 'dev.send_otp', 'dev.send_otp.1.5', 'dev.bad action.0.9', 'garbage']) {
      expect(await verify({ secret: 'the-secret', response })).toEqual({
        success: false,
        'error-codes': ['invalid-input-response'],
      });
    }
    expect((await verify({ secret: 'the-secret' }))['error-codes']).toEqual(['missing-input-response']);
  });

  it('refuses a wrong secret', async () => {
    expect(await verify({ secret: 'nope', response: 'dev.send_otp.0.9' })).toEqual({
      success: false,
      'error-codes': ['invalid-input-secret'],
    });
  });
});

describe('captcha browser shim', () => {
  interface FakeWindow {
    localStorage: { getItem(key: string): string | null; removeItem(key: string): void };
    grecaptcha?: {
      ready(cb: () => void): void;
      execute(siteKey: string, options: { action: string }): Promise<string>;
    };
  }

  function load(initial: string | null) {
    let stored = initial;
    const window: FakeWindow = {
      localStorage: {
        getItem: (key) => (key === 'dev_captcha' ? stored : null),
        removeItem: (key) => {
          if (key === 'dev_captcha') stored = null;
        },
      },
    };
    // The shim is browser source served as text: evaluating it is the point of the test.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const run = new Function('window', captchaShimScript()) as (w: FakeWindow) => void;
    run(window);
    const grecaptcha = window.grecaptcha;
    if (!grecaptcha) throw new Error('the shim did not define window.grecaptcha');
    return grecaptcha;
  }

  it('yields dev.<action>.0.9 by default, after ready()', async () => {
    const grecaptcha = load(null);
    await new Promise<void>((resolve) => grecaptcha.ready(resolve));
    expect(await grecaptcha.execute('site-key', { action: 'send_otp' })).toBe('dev.send_otp.0.9');
  });

  it('follows localStorage.dev_captcha: fail once, or a forced score', async () => {
    const failing = load('fail');
    expect(await failing.execute('site-key', { action: 'send_otp' })).toBe('dev-fail');
    expect(await failing.execute('site-key', { action: 'send_otp' })).toBe('dev.send_otp.0.9');
    const low = load('0.2');
    await low.execute('site-key', { action: 'send_otp' });
    expect(await low.execute('site-key', { action: 'send_otp' })).toBe('dev.send_otp.0.2');
    expect(await load('0.2').execute('site-key', { action: 'send_otp' })).toBe('dev.send_otp.0.2');
    expect(await load('7').execute('site-key', { action: 'send_otp' })).toBe('dev.send_otp.0.9');
  });

  it('mints tokens the stand-in verifies', async () => {
    const token = await load('0.3').execute('site-key', { action: 'send_otp' });
    expect(await verify({ secret: 'the-secret', response: token })).toMatchObject({ success: true, score: 0.3 });
    const refused = await load('fail').execute('site-key', { action: 'send_otp' });
    expect((await verify({ secret: 'the-secret', response: refused })).success).toBe(false);
  });
});
