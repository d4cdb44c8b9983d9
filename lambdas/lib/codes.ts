import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** A 6-digit code from the platform's cryptographic generator: 100000-999999. */
export function generateOtp(): string {
  return String(randomInt(100_000, 1_000_000));
}

/** Keyed hash of a code, bound to the number: only this is stored. */
export function hashOtp(key: string, phone: string, code: string): string {
  return createHmac('sha256', key).update(`${phone}:${code}`).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const AUDIENCE = 'membership-apply';

/** A short-lived proof that the holder verified `phone`; spent by a successful submit. */
export async function signVerification(
  key: string,
  phone: string,
  now: Date,
  ttlSeconds: number,
  id: string,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + ttlSeconds) * 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(phone)
    .setAudience(AUDIENCE)
    .setJti(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(key));
  return { token, expiresAt };
}

/** The verified number and token id, or undefined when forged, expired or malformed. */
export async function readVerification(
  key: string,
  token: string,
  now: Date,
): Promise<{ phone: string; id: string; expiresAt: number } | undefined> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), {
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return undefined;
    return { phone: payload.sub, id: payload.jti, expiresAt: payload.exp };
  } catch {
    return undefined;
  }
}
