import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ScanCommand } from '../../lambdas/lib/db';
import { localDb } from '../../local/dynamodb';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { goodCaptcha, uniqueMobile } from '../support/public-flow';

// Behind CloudFront every request comes from a CloudFront address: the per-address limit
// must count the viewer CloudFront names in CloudFront-Viewer-Address (here, every
// request comes from 127.0.0.1, as every request to the API comes from CloudFront).
let stack: LocalStack;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  // A tiny per-address limit, so that one viewer meets it; the stack does not set this variable.
  process.env.OTP_MAX_PER_IP_PER_HOUR = '2';
  stack = await startLocalStack(
    testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false', LOCAL_OTP_CHANNELS: 'whatsapp' }),
  );
}, 60_000);
afterAll(async () => {
  delete process.env.OTP_MAX_PER_IP_PER_HOUR;
  await stack?.stop();
});

const send = (viewer: string) =>
  fetch(`${stack.apiUrl}/api/otp/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-address': `${viewer}:51234` },
    body: JSON.stringify({ mobile: uniqueMobile(), captchaToken: goodCaptcha }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string } } }));

it('counts each viewer on its own, not the one address every request arrives from', async () => {
  expect((await send('203.0.113.7')).status).toBe(200);
  expect((await send('203.0.113.7')).status).toBe(200);
  expect(await send('203.0.113.7')).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
  // Another student elsewhere, through the same CloudFront address: not limited.
  expect((await send('2001:db8::5')).status).toBe(200);
  expect((await send('198.51.100.9')).status).toBe(200);
});

it('keeps an address only as a keyed hash, never one anybody could undo by hashing every address', async () => {
  expect((await send('192.0.2.44')).status).toBe(200);
  const { Items = [] } = await localDb(stack.dynamoDbEndpoint).send(
    new ScanCommand({ TableName: stack.tableNames.rateLimits }),
  );
  const stored = JSON.stringify(Items);
  expect(stored).toContain('otp-ip#');
  const plain = createHash('sha256').update('192.0.2.44').digest('base64url').slice(0, 22);
  expect(stored).not.toContain(plain);
  expect(stored).not.toContain('192.0.2.44');
});
