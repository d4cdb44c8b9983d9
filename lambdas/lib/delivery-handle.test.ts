import { describe, expect, it } from 'vitest';
import { readDeliveryHandle, signDeliveryHandle } from './codes';

const key = 'k'.repeat(40);
const now = new Date('2026-11-24T10:00:00Z');
const issuedAt = Math.floor(now.getTime() / 1000);
const content = { channel: 'whatsapp' as const, messageId: 'wamid.ABC', issuedAt, expiresAt: issuedAt + 600, requestId: 'r-1' };

describe('delivery handle', () => {
  it('reads back for the same number before it expires', () => {
    const handle = signDeliveryHandle(key, '919876543210', content);
    expect(readDeliveryHandle(key, '919876543210', handle, now)).toEqual(content);
    expect(handle).not.toContain('9876543210');
    // Nothing readable: not the number, not the provider's message id.
    expect(Buffer.from(handle.slice(3), 'base64url').toString('latin1')).not.toMatch(/wamid|9876543210/);
  });
  it('is useless with another number, another key, after expiry, or altered', () => {
    const handle = signDeliveryHandle(key, '919876543210', content);
    expect(readDeliveryHandle(key, '919876543211', handle, now)).toBeUndefined();
    expect(readDeliveryHandle('x'.repeat(40), '919876543210', handle, now)).toBeUndefined();
    expect(readDeliveryHandle(key, '919876543210', handle, new Date((issuedAt + 600) * 1000))).toBeUndefined();
    const [v, payload, mac] = handle.split('.');
    const forged = Buffer.from(
      JSON.stringify({ c: 'whatsapp', m: 'wamid.OTHER', i: issuedAt, e: issuedAt + 600 }),
    ).toString('base64url');
    expect(readDeliveryHandle(key, '919876543210', `${v}.${forged}.${mac}`, now)).toBeUndefined();
    expect(readDeliveryHandle(key, '919876543210', `${v}.${payload}.${mac}.x`, now)).toBeUndefined();
    expect(readDeliveryHandle(key, '919876543210', 'garbage', now)).toBeUndefined();
    // A character added to the end, which Node's decoder would skip, whatever the handle's length.
    for (const extra of ['x', 'xx', 'xxx', 'A']) {
      expect(readDeliveryHandle(key, '919876543210', `${handle}${extra}`, now)).toBeUndefined();
    }
  });
});
