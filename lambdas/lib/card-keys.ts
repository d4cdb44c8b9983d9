import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import {
  base64url,
  type CardClaims,
  encodeClaims,
  initialsOf,
  joinToken,
  keyId,
  parseCardLink,
  parseCardToken,
} from '../../rules/member-card';
import { matchDistrict } from '../../rules/districts';
import { istDay } from '../../rules/ist';
import type { CardKeySecret } from '../adapters/secrets';
import { cardOf } from '../adapters/member-cards';

// The member card's keys (issue 20), derived from the stage's one card secret
// (lib/constructs/app-secrets.ts `cardKey`) by SHA-256 over a label each, so that one
// random string serves both and neither can be had from the other:
//
// - the Ed25519 key that signs the QR's claims (the public half is published at
//   GET /api/card/keys; the verification page checks offline with it);
// - the HMAC key of the card links (`<serial>.<mac>`): only the server can make a link,
//   and the same serial always gives the same link (a retried notice sends the same one).
//
// During a rotation the previous secret's keys still check (tokens and links) and its
// public key stays published; only the current one signs and makes links.

/** PKCS#8 DER of an Ed25519 private key is this prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const derive = (secret: string, label: string) => createHash('sha256').update(`${label}\0${secret}`).digest();

interface KeyPair {
  readonly kid: string;
  /** Raw 32-byte public key, base64url. */
  readonly x: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly linkKey: Buffer;
}

async function keyPair(secret: string): Promise<KeyPair> {
  const seed = derive(secret, 'membership-card-signing-key-v1');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  // The SPKI DER of an Ed25519 key ends with the raw 32 bytes.
  const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  return {
    kid: await keyId(raw),
    x: base64url.encode(raw),
    privateKey,
    publicKey,
    linkKey: derive(secret, 'membership-card-link-key-v1'),
  };
}

/** The first 16 bytes of the HMAC, base64url: 22 characters (rules/member-card.ts). */
const macOf = (key: Buffer, serial: string) =>
  createHmac('sha256', key).update(`card-link\0${serial}`).digest().subarray(0, 16);

export interface CardKeys {
  /** The public keys to publish, current first. */
  readonly published: readonly { readonly kid: string; readonly x: string }[];
  /** `<serial>.<mac>` under the current key. */
  linkOf(serial: string): string;
  /** The serial of a link made by this stage (current or previous key); undefined otherwise. Constant-time. */
  serialOfLink(link: unknown): string | undefined;
  /** The QR's token: the claims (with the current key's id) and their signature. */
  sign(claims: Omit<CardClaims, 'k'>): string;
  /** The claims of a token signed by this stage's current or previous key; undefined otherwise. */
  verify(token: unknown): CardClaims | undefined;
}

function makeCardKeysFrom(current: KeyPair, previous: KeyPair | undefined): CardKeys {
  const pairs = previous ? [current, previous] : [current];
  return {
    published: pairs.map(({ kid, x }) => ({ kid, x })),
    linkOf: (serial) => `${serial}.${base64url.encode(macOf(current.linkKey, serial))}`,
    serialOfLink(link) {
      const parsed = parseCardLink(link);
      if (!parsed) return undefined;
      const given = Buffer.from(base64url.decode(parsed.mac) ?? []);
      if (given.length !== 16) return undefined;
      // Every key is compared, whichever matches: the time says nothing of which.
      const matches = pairs.map((pair) => timingSafeEqual(given, macOf(pair.linkKey, parsed.serial)));
      return matches.includes(true) ? parsed.serial : undefined;
    },
    sign(claims) {
      const part = encodeClaims({ ...claims, k: current.kid });
      return joinToken(part, new Uint8Array(sign(null, Buffer.from(part, 'ascii'), current.privateKey)));
    },
    verify(token) {
      const parsed = parseCardToken(token);
      const pair = parsed && pairs.find((p) => p.kid === parsed.claims.k);
      if (!parsed || !pair) return undefined;
      return verify(null, parsed.signed, pair.publicKey, parsed.signature) ? parsed.claims : undefined;
    },
  };
}

const cache = new Map<string, Promise<KeyPair>>();
const cachedPair = (secret: string) => {
  let pair = cache.get(secret);
  if (!pair) {
    pair = keyPair(secret);
    cache.set(secret, pair);
  }
  return pair;
};

/** The keys of the stage's card secret (derived once per secret value: a rotation is picked up with the secret). */
export async function cardKeysOf(secret: CardKeySecret): Promise<CardKeys> {
  const [current, previous] = await Promise.all([
    cachedPair(secret.current),
    secret.previous ? cachedPair(secret.previous) : undefined,
  ]);
  return makeCardKeysFrom(current, previous);
}

/** The district's id (rules/districts.ts) of a stored district name; '' when unknown. */
export const districtIdOf = (name: unknown) => (typeof name === 'string' ? (matchDistrict(name)?.id ?? '') : '');

/** The QR's claims of an application's current card (without the key id); undefined without a card. */
export function cardClaimsOf(item: Record<string, unknown>): Omit<CardClaims, 'k'> | undefined {
  const card = cardOf(item);
  if (!card) return undefined;
  return {
    v: 1,
    s: card.serial,
    i: initialsOf(typeof item.name === 'string' ? item.name : '').slice(0, 24),
    d: districtIdOf(item.revenue_district).slice(0, 40),
    m: istDay(new Date(card.memberSince)),
    t: istDay(new Date(card.issuedAt)),
  };
}
