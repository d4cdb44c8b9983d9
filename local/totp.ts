import { createHmac } from 'node:crypto';

// The code an authenticator app shows (RFC 6238 as Cognito uses it: HMAC-SHA1, six digits,
// 30-second steps), for the local stack's seeded users and the tests that sign staff in.

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Cognito's secrets are base32 (RFC 4648, no padding); spaces and case are forgiven, as apps do. */
export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not a base32 secret');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

export function totpCode(secret: string, at: number = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
