import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { metaSignature, sameSecret, validMetaSignature } from './webhook-signature';

const secret = 'app-secret';
const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
const hex = createHmac('sha256', secret).update(body).digest('hex');

describe('Meta webhook signature', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw bytes with the app secret', () => {
    expect(metaSignature(secret, body)).toBe(`sha256=${hex}`);
    expect(validMetaSignature(secret, body, `sha256=${hex}`)).toBe(true);
    expect(validMetaSignature(secret, body, `sha256=${hex.toUpperCase()}`)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another algorithm', `sha1=${hex}`],
    ['no prefix', hex],
    ['a short digest', `sha256=${hex.slice(2)}`],
    ['a long digest', `sha256=${hex}00`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['another secret', metaSignature('other', body)],
  ])('refuses %s', (_, header) => {
    expect(validMetaSignature(secret, body, header)).toBe(false);
  });

  it('refuses other bytes, and everything when the app secret is empty', () => {
    expect(validMetaSignature(secret, Buffer.concat([body, Buffer.from(' ')]), `sha256=${hex}`)).toBe(false);
    expect(validMetaSignature('', body, metaSignature('', body))).toBe(false);
  });
});

describe('verify token comparison', () => {
  it('matches only the same non-empty value, whatever the lengths', () => {
    expect(sameSecret('verify-token', 'verify-token')).toBe(true);
    expect(sameSecret('verify-token', 'verify-token ')).toBe(false);
    expect(sameSecret('verify-token', 'verify')).toBe(false);
    expect(sameSecret('verify-token', undefined)).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});
