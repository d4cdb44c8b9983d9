import { verifyAsync } from '@noble/ed25519';
import { base64url, type CardClaims, type CardKeysResponse, parseCardToken } from '../../../../../rules/member-card';

// The offline check: the token's signature against the stage's public key whose id the
// token names. @noble/ed25519 rather than WebCrypto: many phones' browsers still lack
// Ed25519 in crypto.subtle.

export type SignatureCheck =
  | { readonly kind: 'malformed' }
  /** No key with the token's id (a fresh list: no key of ours signed it). */
  | { readonly kind: 'unknown-key' }
  | { readonly kind: 'bad-signature' }
  | { readonly kind: 'good'; readonly claims: CardClaims };

export async function checkSignature(token: string, keys: CardKeysResponse): Promise<SignatureCheck> {
  const parsed = parseCardToken(token);
  if (!parsed) return { kind: 'malformed' };
  const key = keys.keys.find((k) => k.kid === parsed.claims.k);
  const publicKey = key ? base64url.decode(key.x) : undefined;
  if (publicKey?.length !== 32) return { kind: 'unknown-key' };
  try {
    const good = await verifyAsync(parsed.signature, parsed.signed, publicKey);
    return good ? { kind: 'good', claims: parsed.claims } : { kind: 'bad-signature' };
  } catch {
    // A public key that is not a curve point: nothing it "signed" is ours.
    return { kind: 'bad-signature' };
  }
}
