import { useCallback, useEffect, useState } from 'react';
import { type CardClaims, parseCardToken } from '../../../../../rules/member-card';
import { getCardKeys } from '../api/get-card-keys';
import { getCardStatus } from '../api/get-card-status';
import { checkSignature } from '../utils/check-signature';

/**
 * What the steward sees:
 * - 'valid': the signature is ours and the server says the card is live;
 * - 'not-valid': a malformed or tampered token, a key we never had, or a card the server
 *   says is revoked, replaced or of a member no longer approved;
 * - 'offline': the signature is ours but the server could not be asked;
 * - 'unchecked': no connection and no keys remembered from an earlier check.
 * Claims are shown only with a good signature: a forged token's claims mean nothing.
 */
export type Verification =
  | { readonly state: 'checking' }
  | { readonly state: 'valid' | 'offline'; readonly claims: CardClaims }
  | { readonly state: 'not-valid' }
  | { readonly state: 'unchecked' };

const tokenFromHash = () => decodeURIComponent(window.location.hash.replace(/^#/, ''));

async function verify(token: string, signal: AbortSignal): Promise<Verification> {
  // Not a token at all: said at once, with or without a connection.
  if (!parseCardToken(token)) return { state: 'not-valid' };
  const keys = await getCardKeys(signal);
  if (!keys) return { state: 'unchecked' };
  const signature = await checkSignature(token, keys.keys);
  if (signature.kind === 'malformed' || signature.kind === 'bad-signature') return { state: 'not-valid' };
  // A key missing from remembered keys may be a newer one: only a fresh list can say it is not ours.
  if (signature.kind === 'unknown-key') return keys.fresh ? { state: 'not-valid' } : { state: 'unchecked' };
  try {
    const { valid } = await getCardStatus(token, signal);
    return valid ? { state: 'valid', claims: signature.claims } : { state: 'not-valid' };
  } catch (error) {
    if (signal.aborted) throw error;
    return { state: 'offline', claims: signature.claims };
  }
}

/** The token after `#`, checked offline (signature) then online (status); `again` checks anew. */
export function useVerification(): { verification: Verification; again: () => void } {
  const [token, setToken] = useState(tokenFromHash);
  const [attempt, setAttempt] = useState(0);
  // Each answer is kept with the attempt it answers: a new attempt reads as 'checking' at once.
  const [answer, setAnswer] = useState<{ key: string; result: Verification }>();
  const key = `${attempt}:${token}`;
  useEffect(() => {
    const controller = new AbortController();
    verify(token, controller.signal).then(
      (result) => !controller.signal.aborted && setAnswer({ key, result }),
      () => !controller.signal.aborted && setAnswer({ key, result: { state: 'unchecked' } }),
    );
    return () => controller.abort();
  }, [token, key]);
  useEffect(() => {
    // Another card scanned into the same tab: checked anew.
    const onHash = () => setToken(tokenFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const again = useCallback(() => setAttempt((n) => n + 1), []);
  const verification: Verification = answer?.key === key ? answer.result : { state: 'checking' };
  return { verification, again };
}
