import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
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
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number')
      return undefined;
    return { phone: payload.sub, id: payload.jti, expiresAt: payload.exp };
  } catch {
    return undefined;
  }
}

/** What a delivery handle names: the message a send produced, and when it was issued. */
export interface DeliveryHandle {
  readonly channel: 'whatsapp' | 'sms';
  readonly messageId: string;
  /** Epoch seconds. */
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** The send's own id, also kept with its code: who holds the handle asked for that code. */
  readonly requestId: string;
}

const handleKey = (key: string) => createHmac('sha256', key).update('membership/delivery-handle/v1').digest();

/**
 * An opaque, short-lived handle for the page to ask how its code is doing (and to switch
 * it to SMS). Encrypted and authenticated (AES-256-GCM) with the number as associated
 * data: useless with another number, and it shows nothing, not even the provider's
 * message id (a WhatsApp `wamid` carries the recipient's number in base64).
 */
export function signDeliveryHandle(key: string, phone: string, handle: DeliveryHandle): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', handleKey(key), iv);
  cipher.setAAD(Buffer.from(phone));
  const plain = JSON.stringify({
    c: handle.channel,
    m: handle.messageId,
    i: handle.issuedAt,
    e: handle.expiresAt,
    r: handle.requestId,
  });
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The handle's content when it was issued for `phone` by us and has not expired; else undefined. */
export function readDeliveryHandle(key: string, phone: string, handle: string, now: Date): DeliveryHandle | undefined {
  const [version, sealed, ...rest] = handle.split('.');
  if (version !== 'v1' || !sealed || rest.length > 0) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  // Node's decoder skips what it cannot use (a stray trailing character): only the one spelling counts.
  if (bytes.length < 12 + 16 + 2 || bytes.toString('base64url') !== sealed) return undefined;
  let value: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', handleKey(key), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(phone));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
    value = JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
  const { c, m, i, e, r } = (value ?? {}) as Record<string, unknown>;
  if (
    (c !== 'whatsapp' && c !== 'sms') ||
    typeof m !== 'string' ||
    typeof i !== 'number' ||
    typeof e !== 'number' ||
    typeof r !== 'string'
  ) {
    return undefined;
  }
  if (e * 1000 <= now.getTime()) return undefined;
  return { channel: c, messageId: m, issuedAt: i, expiresAt: e, requestId: r };
}
