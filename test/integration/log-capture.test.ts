import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { captureFiles } from '../support/log-capture';
import { selfCheckFile } from '../support/log-capture-setup';
import { findLeaksInLines } from '../support/log-scan';
import { goodCaptcha, post, submitBody, uniqueMobile } from '../support/public-flow';

// The log-leak check of the integration tier (test/support/log-capture*.ts) is only as
// good as what it sees. This file walks the public flow once, then proves from this
// worker's capture that the handlers' lines are there, with their request ids, that the
// number, code and token of the walk were gathered, and that a line holding one of them
// would be caught. It leaves the messages it saw for the run's final scan to look for.
let stack: LocalStack;

beforeAll(async () => {
  // Nothing below ERROR on the terminal: the capture still gets every level.
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(
    testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false', LOCAL_QUEUE_VISIBILITY_MS: '100' }),
  );
  // Locally every function shares one process and Powertools' logger keeps its context on
  // the instance, so a status callback arriving mid-request would lend the request its own
  // request id. Lambda runs one invocation per environment; here the walk runs without the
  // callbacks (test/integration/delivery-status.test.ts covers them).
  stack.whatsApp.setWebhook(undefined);
}, 60_000);
afterAll(() => stack?.stop());

interface LogItem {
  level: string;
  message: string;
  service: string;
  requestId?: string;
  route?: string;
  function_request_id?: string;
  function_name?: string;
  [key: string]: unknown;
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('log capture', () => {
  it('sees every handler line of a walk through the public flow, with request ids, and catches a planted leak', async () => {
    const files = captureFiles();
    expect(files, 'the integration setup file installs the capture').toBeDefined();
    const api = stack.apiUrl;
    const mobile = uniqueMobile();

    // A send both providers refuse (WhatsApp 131026, then SMS a 500), then the walk: code,
    // a wrong code, the code, submit.
    const refused = uniqueMobile();
    stack.whatsApp.failNext({ mode: 'recipient' });
    stack.sms.failNext({ mode: 'http500' });
    expect((await post(api, '/api/otp/request', { mobile: refused, captchaToken: goodCaptcha })).status).toBe(502);
    expect((await post(api, '/api/otp/request', { mobile, captchaToken: goodCaptcha })).status).toBe(200);
    const code = stack.whatsApp.latestOtp(`91${mobile}`)!;
    const wrong = code === '999999' ? '100000' : String(Number(code) + 1);
    expect((await post(api, '/api/otp/verify', { mobile, code: wrong })).status).toBe(400);
    const verified = await post(api, '/api/otp/verify', { mobile, code });
    expect(verified.status).toBe(200);
    const token = verified.body.verificationToken as string;
    const submitted = await post(api, '/api/applications', submitBody(token));
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as string;
    await until(
      () => stack.whatsApp.messages().find((m) => m.kind === 'welcome' && m.to === `91${mobile}`),
      'the welcome message',
    );
    await until(
      () => stack.sink.deliveries().find((d) => (d.body as { application_id?: string }).application_id === id),
      'the webhook',
    );
    // The consumer logs after the send returns.
    await new Promise((r) => setTimeout(r, 200));

    const lines = readFileSync(files!.logFile, 'utf8').split('\n');
    const items = lines.flatMap((line) => {
      if (!line.startsWith('{"level":')) return [];
      const item = JSON.parse(line) as LogItem;
      return item.service === 'membership' ? [item] : [];
    });
    const one = (message: string, match: (item: LogItem) => boolean = () => true) => {
      const found = items.filter((item) => item.message === message && match(item)).at(-1);
      expect(found, `a captured "${message}" line`).toBeDefined();
      return found!;
    };
    const masked = `91XXXXXX${mobile.slice(-4)}`;
    const refusedMasked = `91XXXXXX${refused.slice(-4)}`;
    const fellBack = one('WhatsApp refused the code: sending by SMS', (i) => i.phone === refusedMasked);
    expect(fellBack).toMatchObject({ level: 'INFO', providerCode: 131026, reason: 'undeliverable' });
    const http = [
      one('OTP SMS send failed', (i) => i.phone === refusedMasked),
      one('OTP sent', (i) => i.phone === masked),
      one('OTP mismatch', (i) => i.phone === masked),
      one('OTP verified', (i) => i.phone === masked),
      one('Application submitted', (i) => i.applicationId === id),
    ];
    // INFO and WARN lines, below the ERROR this file asked for: the capture takes every level.
    expect(new Set(http.map((i) => i.level))).toEqual(new Set(['INFO', 'WARN']));
    expect(http[0]).toMatchObject({ errorCode: 'SMS_SEND_FAILED' });
    expect(http[0]?.requestId).toBe(fellBack.requestId);
    for (const item of http) {
      // API Gateway's request id and Lambda's (the local adapter gives both the same value).
      expect(item.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(item.function_request_id).toBe(item.requestId);
      expect(item.route).toMatch(/^POST \/api\//);
    }
    expect(new Set(http.map((i) => i.requestId)).size).toBe(http.length);
    const background = [
      one('Welcome message sent', (i) => i.applicationId === id),
      one('Webhook delivered', (i) => i.applicationId === id),
    ];
    for (const item of background) {
      expect(item.function_name).toBe('outbound-consumer');
      expect(item.function_request_id).toMatch(/\S/);
    }

    // What the walk used was gathered: the number, the codes, the token, the secrets.
    const gathered = readFileSync(files!.secretsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; value: string });
    const has = (kind: string, value: string) => gathered.some((g) => g.kind === kind && g.value === value);
    expect(has('phone', `91${mobile}`)).toBe(true);
    expect(has('phone', `91${refused}`)).toBe(true);
    expect(has('code', code)).toBe(true);
    expect(has('code', wrong)).toBe(true);
    expect(has('token', token)).toBe(true);
    expect(has('token', 'local-whatsapp-token')).toBe(true);
    expect(has('secret', 'local-webhook-password')).toBe(true);

    const secrets = {
      phones: gathered.filter((g) => g.kind === 'phone').map((g) => g.value),
      codes: gathered.filter((g) => g.kind === 'code').map((g) => g.value),
      tokens: gathered.filter((g) => g.kind === 'token').map((g) => g.value),
      secrets: gathered.filter((g) => g.kind === 'secret').map((g) => g.value),
    };
    expect(findLeaksInLines(lines, secrets, { patterns: true })).toEqual([]);
    // The same lines with one real handler line un-masked, or given the code or the token, fail the scan.
    const sent = lines.find((l) => l.includes('"message":"OTP sent"') && l.includes(masked))!;
    for (const planted of [sent.replace(masked, `91${mobile}`), sent.replace(masked, code), sent.replace(masked, token)]) {
      expect(findLeaksInLines([...lines, planted], secrets, { patterns: true })).not.toEqual([]);
    }

    // For the run's final scan: these messages must be among what it reads.
    writeFileSync(join(inject('logCaptureDir'), selfCheckFile), JSON.stringify([...new Set([...http, ...background].map((i) => i.message))]));
  });
});
