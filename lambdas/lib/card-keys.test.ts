import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { base64url, isCardSerial, parseCardToken } from '../../rules/member-card';
import { cardClaimsOf, cardKeysOf } from './card-keys';

const secret = { current: 'c'.repeat(40), previous: '' };
const claims = { v: 1 as const, s: 'abcdefghjkmnpq23', i: 'K. R.', d: 'madurai', m: '2026-11-20', t: '2026-11-21' };

/** The token with one byte of its signature flipped. */
function flipSignatureBit(token: string): string {
  const [part, signature] = token.split('.') as [string, string];
  const bytes = base64url.decode(signature)!;
  bytes[10]! ^= 1;
  return `${part}.${base64url.encode(bytes)}`;
}

describe('card keys', () => {
  it('signs claims that the verification page’s library checks against the published key', async () => {
    const keys = await cardKeysOf(secret);
    const token = keys.sign(claims);
    expect(keys.verify(token)).toEqual({ ...claims, k: keys.published[0]!.kid });
    const parsed = parseCardToken(token)!;
    const publicKey = base64url.decode(keys.published[0]!.x)!;
    expect(publicKey).toHaveLength(32);
    expect(await ed.verifyAsync(parsed.signature, parsed.signed, publicKey)).toBe(true);
    // Deterministic: the same card gives the same token.
    expect(keys.sign(claims)).toBe(token);
  });

  it('refuses a token with a claim changed, a signature bit flipped, or another stage’s key', async () => {
    const keys = await cardKeysOf(secret);
    const token = keys.sign(claims);
    const [part, signature] = token.split('.') as [string, string];
    const changed = JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;
    const forged = `${base64url.encode(new TextEncoder().encode(JSON.stringify({ ...changed, d: 'chennai' })))}.${signature}`;
    expect(keys.verify(forged)).toBeUndefined();
    expect(keys.verify(flipSignatureBit(token))).toBeUndefined();
    const other = await cardKeysOf({ current: 'o'.repeat(40), previous: '' });
    expect(other.verify(token)).toBeUndefined();
    for (const junk of ['', 'a.b', 42, null, `${token}.x`, 'x'.repeat(700)]) expect(keys.verify(junk)).toBeUndefined();
  });

  it('makes the same link for a serial every time, checks it in constant time, and refuses any other', async () => {
    const keys = await cardKeysOf(secret);
    const link = keys.linkOf(claims.s);
    expect(link).toBe(keys.linkOf(claims.s));
    expect(link).toMatch(/^[a-z2-9]{16}\.[A-Za-z0-9_-]{22}$/);
    expect(keys.serialOfLink(link)).toBe(claims.s);
    // Any other last letter, even one that decodes to the same 16 bytes (its low bits are
    // dropped by base64): one spelling per card, for many serials.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const serial of ['abcdefghjkmnpq23', 'abcdefghjkmnpq25', '23456789abcdefgh', 'zzzzzzzzzzzzzzzz']) {
      const own = keys.linkOf(serial);
      expect(keys.serialOfLink(own)).toBe(serial);
      for (const letter of alphabet.replace(own.at(-1)!, '')) {
        expect(keys.serialOfLink(`${own.slice(0, -1)}${letter}`), letter).toBeUndefined();
      }
    }
    expect(keys.serialOfLink(`${'abcdefghjkmnpq24'}.${link.split('.')[1]}`)).toBeUndefined();
    for (const junk of ['', 'x', 7, undefined, `${link}.x`]) expect(keys.serialOfLink(junk)).toBeUndefined();
  });

  it('during a rotation publishes both keys and still checks the previous key’s tokens and links', async () => {
    const old = await cardKeysOf(secret);
    const rotated = await cardKeysOf({ current: 'n'.repeat(40), previous: secret.current });
    expect(rotated.published.map((k) => k.kid)).toEqual([expect.any(String), old.published[0]!.kid]);
    expect(rotated.verify(old.sign(claims))).toBeDefined();
    expect(rotated.serialOfLink(old.linkOf(claims.s))).toBe(claims.s);
    expect(rotated.linkOf(claims.s)).not.toBe(old.linkOf(claims.s));
  });

  it('builds claims from an application: initials, district id, IST days of membership and issue', () => {
    const made = cardClaimsOf({
      name: 'Kavya Raman',
      revenue_district: 'Madurai',
      card_serial: claims.s,
      // 20:00 UTC is the next day in IST.
      card_issued_at: '2026-11-21T20:00:00.000Z',
      member_since: '2026-11-20T10:00:00.000Z',
    });
    expect(made).toEqual({ v: 1, s: claims.s, i: 'K. R.', d: 'madurai', m: '2026-11-20', t: '2026-11-22' });
    expect(isCardSerial(made!.s)).toBe(true);
    expect(cardClaimsOf({ name: 'No Card' })).toBeUndefined();
  });
});
