import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw
// body with the app secret>`. The raw bytes, exactly as they came, are what is signed.

/** The header Meta sends for a body (the local WhatsApp sandbox and tests sign with it too). */
export function metaSignature(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * True only for the right signature of these bytes, compared in constant time. An empty
 * app secret (not configured) refuses everything: anybody could sign with it.
 */
export function validMetaSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (appSecret === '' || header === undefined) return false;
  const given = SIGNATURE.exec(header.trim())?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/**
 * Compares a presented secret (the webhook's verify token) with the configured one in
 * constant time, whatever their lengths; an empty configured value never matches.
 */
export function sameSecret(configured: string, presented: string | undefined): boolean {
  if (configured === '' || presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(configured), digest(presented));
}
