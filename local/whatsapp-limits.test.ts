import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WhatsAppLimits, defaultTier } from './whatsapp-limits';
import { startWhatsAppSandbox, type WhatsAppSandbox } from './whatsapp-sandbox';
import { otpMessage, postMessage, testPhoneNumberId, testToken } from './whatsapp-test-requests';

const token = testToken;
const phoneNumberId = testPhoneNumberId;

describe('WhatsApp limits (unit, with a clock)', () => {
  it('caps unique template recipients in a moving 24 hours; known recipients and texts pass', () => {
    let t = 0;
    const limits = new WhatsAppLimits({ ...defaultTier, uniqueRecipientsPer24h: 2 }, () => t);
    for (const to of ['911', '912']) {
      expect(limits.check('p', to, true)).toBeUndefined();
      limits.record('p', to, true);
      t += 10_000;
    }
    expect(limits.check('p', '913', true)).toBe('tier');
    expect(limits.check('p', '913', false)).toBeUndefined();
    expect(limits.check('p', '911', true)).toBeUndefined();
    t = 86_400_000 + 1; // the first recipient's day is over
    expect(limits.check('p', '913', true)).toBeUndefined();
    expect(limits.uniqueRecipients()).toBe(1);
  });

  it('allows a burst to one recipient, then one message per interval', () => {
    let t = 0;
    const limits = new WhatsAppLimits({ ...defaultTier, pairBurst: 3, pairIntervalMs: 6000 }, () => t);
    for (let i = 0; i < 3; i++) {
      expect(limits.check('p', '911', true)).toBeUndefined();
      limits.record('p', '911', true);
      t += 1001; // stay clear of the throughput window
    }
    expect(limits.check('p', '911', true)).toBe('pair');
    expect(limits.check('p', '912', true)).toBeUndefined();
    t += 6000;
    expect(limits.check('p', '911', true)).toBeUndefined();
  });
});

let sandbox: WhatsAppSandbox;
/** Set to hold the sandbox's clock still (rate tests must not depend on this machine's speed). */
let frozenAt: number | undefined;

beforeAll(async () => {
  sandbox = await startWhatsAppSandbox({
    port: 0,
    accessToken: token,
    phoneNumberId,
    now: () => frozenAt ?? Date.now(),
  });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
  frozenAt = undefined;
});

const post = (body: unknown) =>
  postMessage<{ error?: { code: number; error_data?: { details: string } } }>(sandbox.url, body);

const number = (i: number) => `9198765${String(i).padStart(5, '0')}`;

describe('WhatsApp sandbox limits over HTTP', () => {
  it('refuses a new recipient beyond the tier cap with 131048; earlier recipients still get messages', async () => {
    sandbox.setTier({ uniqueRecipientsPer24h: 3 });
    for (let i = 0; i < 3; i++) expect((await post(otpMessage(number(i)))).status).toBe(200);
    const refused = await post(otpMessage(number(3)));
    expect(refused.status).toBe(400);
    expect(refused.json.error?.code).toBe(131048);
    expect(refused.json.error?.error_data?.details).toMatch(/messaging limit/);
    expect((await post(otpMessage(number(0), '654321'))).status).toBe(200);
    expect(sandbox.tier()).toMatchObject({ uniqueRecipientsPer24h: 3, uniqueRecipients: 3 });

    sandbox.setTier({ uniqueRecipientsPer24h: null });
    expect((await post(otpMessage(number(3)))).status).toBe(200);
  });

  it('refuses beyond the messages per second of the number with 130429', async () => {
    sandbox.setTier({ messagesPerSecond: 5 });
    frozenAt = Date.now();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(otpMessage(number(100 + i)))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.json.error?.code])).toEqual(Array(3).fill([429, 130429]));
    frozenAt += 1000;
    expect((await post(otpMessage(number(200)))).status).toBe(200);
  });

  it('refuses the same recipient too often with 131056 (pair rate limit)', async () => {
    // A frozen clock: the 6-second refill must not depend on how fast this machine is.
    const frozen = await startWhatsAppSandbox({ port: 0, accessToken: token, phoneNumberId, now: () => 1_000_000 });
    try {
      const statuses: number[] = [];
      let last: unknown;
      for (let i = 0; i < 46; i++) {
        const response = await fetch(`${frozen.url}/v19.0/${phoneNumberId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to: number(300),
            type: 'text',
            text: { body: `m${i}` },
          }),
        });
        statuses.push(response.status);
        last = await response.json();
      }
      expect(statuses.slice(0, 45).every((s) => s === 200)).toBe(true);
      expect(statuses[45]).toBe(400);
      expect(last).toMatchObject({ error: { code: 131056 } });
    } finally {
      await frozen.close();
    }
  });

  it('reset lifts the tier and forgets the recipients', async () => {
    sandbox.setTier({ uniqueRecipientsPer24h: 1 });
    await post(otpMessage(number(400)));
    expect((await post(otpMessage(number(401)))).status).toBe(400);
    sandbox.reset();
    expect(sandbox.tier()).toMatchObject({ uniqueRecipientsPer24h: null, messagesPerSecond: 80, uniqueRecipients: 0 });
    expect((await post(otpMessage(number(401)))).status).toBe(200);
  });

  it('the control route validates and sets the tier', async () => {
    const control = (body: unknown) =>
      fetch(`${sandbox.url}/__sandbox/tier`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    expect((await control({})).status).toBe(400);
    expect((await control({ uniqueRecipientsPer24h: 0 })).status).toBe(400);
    expect((await control({ uniqueRecipientsPer24h: 'many' })).status).toBe(400);
    expect((await control({ uniqueRecipientsPer24h: 250, messagesPerSecond: 80 })).status).toBe(200);
    expect(sandbox.tier()).toMatchObject({ uniqueRecipientsPer24h: 250, messagesPerSecond: 80 });
  });
});

describe('WhatsApp limits and a clock moved back', () => {
  it('forgets sends "in the future" instead of refusing until real time catches up', () => {
    let t = 10_000_000;
    const limits = new WhatsAppLimits({ ...defaultTier, messagesPerSecond: 1, pairBurst: 1 }, () => t);
    limits.record('p', '911', true);
    expect(limits.check('p', '911', true)).toBe('throughput');
    t = 0;
    expect(limits.check('p', '911', true)).toBeUndefined();
  });
});
