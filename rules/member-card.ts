import * as v from 'valibot';
import type { applicationStatuses } from './application';

// The member's card (issue 20): what the server, the card page, the verification page and
// the staff area agree on. No crypto here (rules/ runs in the browser and in Lambda alike):
// the server signs with node:crypto (Ed25519), the verification page checks with
// @noble/ed25519; both sign and check exactly `signedPart(token)`'s bytes.
//
// A card is a serial, issued with the member number on the first approval and replaced
// when an admin reissues it. Three things are derived from the serial and nothing else is
// stored for them:
//
// - the card link, `/card#<serial>.<mac>`: `mac` is an HMAC of the serial under the
//   stage's card key, so only the server can make one, the same link comes out every time
//   (a retried approval notice sends the same link), and a reissue (new serial) kills the
//   old link. The secret part travels after `#`: browsers never send it, so no CloudFront
//   or API log holds it; the page posts it in a body.
// - the verification token in the QR, `/v#<token>`: an Ed25519 signature over the serial,
//   the member's initials, district, member-since day and the card's issue day. It names
//   no member number, no full name and no phone: a door steward learns only what the
//   verification page shows, and can check the signature offline against the stage's
//   public key (GET /api/card/keys, cached by the page).
// - the card's state, online: POST /api/card/status answers `valid` only while the serial
//   is the application's current card, the card is not revoked, and the application exists
//   and is approved.

/** The serial: 16 characters of the referral codes' unambiguous alphabet (about 78 bits). */
export const CARD_SERIAL_LENGTH = 16;
const serialPattern = /^[abcdefghjkmnpqrstuvwxyz23456789]{16}$/;
export const isCardSerial = (value: unknown): value is string => typeof value === 'string' && serialPattern.test(value);

/**
 * The link's MAC: 22 base64url characters (the first 16 bytes of an HMAC-SHA-256), in the
 * one canonical spelling: the last character carries 2 bits of the MAC and 4 zero bits, so
 * it is one of A, Q, g, w. Another last character decodes to the same 16 bytes (base64
 * decoders drop the extra bits): a link with a changed last letter still opened the card,
 * one time in four (the member-card integration test's tampered link, CI 2026-11-28).
 */
const macPattern = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** `<serial>.<mac>`: what follows `#` in a card link. */
export function parseCardLink(value: unknown): { serial: string; mac: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const [serial, mac, ...rest] = value.split('.');
  if (rest.length > 0 || !isCardSerial(serial) || mac === undefined || !macPattern.test(mac)) return undefined;
  return { serial, mac };
}

/** The SPA's paths of the card page and the verification page (the secret goes after #). */
export const CARD_PAGE_PATH = '/card';
export const VERIFY_PAGE_PATH = '/v';
export const cardPageHref = (link: string) => `${CARD_PAGE_PATH}#${link}`;
/**
 * The card page's path as an SMS carries it, `/card?#<serial>.<mac>`: India's DLT lets a
 * URL through only when whitelisted, and a whitelisted dynamic URL ends with `?`
 * (docs/MESSAGING.md). The empty query changes nothing for the page, which reads the hash.
 */
export const SMS_CARD_PAGE_PREFIX = `${CARD_PAGE_PATH}?#`;
export const verifyPageHref = (token: string) => `${VERIFY_PAGE_PATH}#${token}`;

// --- The verification token -------------------------------------------------------------

const day = () => v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/** What the QR's token says, signed. Short keys: the QR stays small enough for a cheap phone's camera. */
export const cardClaimsSchema = v.strictObject({
  /** Format version. */
  v: v.literal(1),
  /** The signing key's id (its public key's hash, `keyId` below). */
  k: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8}$/)),
  /** The card's serial. */
  s: v.pipe(v.string(), v.regex(serialPattern)),
  /** Initials, as `initialsOf` gives them (at most three, Tamil or Latin). */
  i: v.pipe(v.string(), v.maxLength(24)),
  /** The member's district id (rules/districts.ts), or '' when none is known. */
  d: v.pipe(v.string(), v.maxLength(40)),
  /** Member since: the first approval's IST day. */
  m: day(),
  /** The card's issue day (IST). */
  t: day(),
});
export type CardClaims = v.InferOutput<typeof cardClaimsSchema>;

const b64url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromB64url = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
};
export const base64url = { encode: b64url, decode: fromB64url };

/** The token's first part: the claims as JSON, base64url. This part's ASCII bytes are what is signed. */
export function encodeClaims(claims: CardClaims): string {
  // Fixed key order: the same card always gives the same token (Ed25519 is deterministic).
  const { v: version, k, s, i, d, m, t } = claims;
  return b64url(new TextEncoder().encode(JSON.stringify({ v: version, k, s, i, d, m, t })));
}

/** `<claims>.<signature>`, both base64url; the signature is 64 bytes. */
export const joinToken = (claimsPart: string, signature: Uint8Array) => `${claimsPart}.${b64url(signature)}`;

/** A token's parts when it is well formed (claims valid, signature 64 bytes); nothing is checked cryptographically. */
export function parseCardToken(
  token: unknown,
): { claims: CardClaims; signed: Uint8Array; signature: Uint8Array } | undefined {
  if (typeof token !== 'string' || token.length > 600) return undefined;
  const [claimsPart, signaturePart, ...rest] = token.split('.');
  if (rest.length > 0 || !claimsPart || !signaturePart) return undefined;
  const claimBytes = fromB64url(claimsPart);
  const signature = fromB64url(signaturePart);
  if (!claimBytes || signature?.length !== 64) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(claimBytes));
  } catch {
    return undefined;
  }
  const claims = v.safeParse(cardClaimsSchema, json);
  if (!claims.success) return undefined;
  return { claims: claims.output, signed: new TextEncoder().encode(claimsPart), signature };
}

/** A public key's id: the first 6 bytes of its SHA-256, base64url (8 characters). */
export async function keyId(publicKey: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', publicKey as BufferSource));
  return b64url(digest.slice(0, 6));
}

/**
 * The initials of a name, in its own script: the first letter of each of its first three
 * words with the vowel sign or virama that belongs to it (a Tamil letter is a grapheme
 * cluster: `செல்வன்` gives `செ`), each followed by a dot.
 */
export function initialsOf(name: string): string {
  const words = name
    .normalize('NFC')
    .trim()
    .split(/[\s.]+/u)
    .filter(Boolean)
    .slice(0, 3);
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return words
    .map((word) => {
      const first = segmenter.segment(word)[Symbol.iterator]().next().value?.segment ?? '';
      return `${first.toLocaleUpperCase('en-IN')}.`;
    })
    .join(' ');
}

// --- The API ---------------------------------------------------------------------------

/** GET /api/card/keys: the stage's public keys (raw 32-byte Ed25519, base64url). Cached by CloudFront and the page. */
export const cardKeysResponseSchema = v.object({
  keys: v.array(v.object({ kid: v.string(), x: v.string() })),
});
export type CardKeysResponse = v.InferOutput<typeof cardKeysResponseSchema>;

/** POST /api/card: the card page asks for its card by the link's secret part. */
export const cardRequestSchema = v.strictObject({ link: v.pipe(v.string(), v.maxLength(64)) });

/** What the card shows. 404 CARD_NOT_FOUND for a wrong, replaced or revoked link, or a member no longer approved. */
export const cardViewSchema = v.object({
  name: v.string(),
  memberNumber: v.string(),
  district: v.string(),
  /** The constituency's number (rules/districts.ts), when the application has one. */
  constituency: v.optional(v.number()),
  /** IST day of the first approval. */
  memberSince: v.string(),
  /** IST day the current card was issued. */
  issuedOn: v.string(),
  /** The QR's token (the page makes the verification link from it). */
  token: v.string(),
});
export type CardView = v.InferOutput<typeof cardViewSchema>;

/**
 * POST /api/card/mine: "Get my card" on the public page, after the code was checked. The
 * body holds the verification token (not spent). 200 `{ link }` for an approved member
 * with a live card; 404 NOT_A_MEMBER otherwise (the number proved it is the applicant's,
 * so saying so reveals nothing to a stranger).
 */
export const myCardRequestSchema = v.strictObject({ verificationToken: v.pipe(v.string(), v.maxLength(2048)) });
export const myCardResponseSchema = v.object({ link: v.string() });
export type MyCardResponse = v.InferOutput<typeof myCardResponseSchema>;

/**
 * POST /api/card/status: the verification page's online check. The answer is this and
 * nothing else (no name, number or reason): `valid` false for a bad signature, an unknown,
 * replaced or revoked card, or a member who was rejected or erased.
 */
export const cardStatusRequestSchema = v.strictObject({ token: v.pipe(v.string(), v.maxLength(600)) });
export const cardStatusResponseSchema = v.strictObject({ valid: v.boolean() });
export type CardStatusResponse = v.InferOutput<typeof cardStatusResponseSchema>;

// --- Staff -----------------------------------------------------------------------------

/** The card as the details row shows it (ApplicationDetail.card); absent before the first approval. */
export const cardStates = ['active', 'revoked'] as const;
export type CardState = (typeof cardStates)[number];
export const staffCardSchema = v.object({
  state: v.picklist(cardStates),
  issuedAt: v.string(),
  revokedAt: v.optional(v.string()),
  /** Whether the card verifies as valid now (active and the application approved). */
  valid: v.boolean(),
  /** Reissues so far (0 for the first card). */
  reissues: v.number(),
});
export type StaffCard = v.InferOutput<typeof staffCardSchema>;

/**
 * POST /api/admin/applications/{id}/card: admins only, audited (`card-revoke`,
 * `card-reissue`). A reissue gives a new serial (the old link and QR stop working) and
 * an active card; a revoke keeps the serial and makes it verify as not valid.
 * 404 NOT_FOUND without a card (or outside the caller's districts).
 */
export const cardActionRequestSchema = v.strictObject({ action: v.picklist(['revoke', 'reissue']) });
export type CardAction = v.InferOutput<typeof cardActionRequestSchema>['action'];
export const cardActionResponseSchema = v.object({ card: staffCardSchema });

/** Statuses with which a card verifies as valid (only approved). */
export const validCardStatuses: readonly (typeof applicationStatuses)[number][] = ['approved'];
