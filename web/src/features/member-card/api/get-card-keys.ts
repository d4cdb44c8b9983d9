import * as v from 'valibot';
import { type CardKeysResponse, cardKeysResponseSchema } from '../../../../../rules/member-card';
import { apiRequest } from '../../../lib/api-client';

// The stage's public keys, kept in localStorage: a steward's phone that checked one card
// online can check the signatures of the next ones with no connection (a hall's basement).

export const CARD_KEYS_STORAGE_KEY = 'card_keys';

function readCached(): CardKeysResponse | undefined {
  try {
    const raw = window.localStorage.getItem(CARD_KEYS_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = v.safeParse(cardKeysResponseSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

function store(keys: CardKeysResponse): void {
  try {
    window.localStorage.setItem(CARD_KEYS_STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // Private mode or full storage: this phone then needs a connection for the next check.
  }
}

/**
 * GET /api/card/keys, remembered; the remembered keys when the request fails (offline).
 * `fresh` says which: a key missing from a fresh list is a card no key of ours signed.
 */
export async function getCardKeys(
  signal?: AbortSignal,
): Promise<{ keys: CardKeysResponse; fresh: boolean } | undefined> {
  try {
    const keys = await apiRequest('/card/keys', { schema: cardKeysResponseSchema, signal, retry: false });
    store(keys);
    return { keys, fresh: true };
  } catch (error) {
    if (signal?.aborted) throw error;
    const cached = readCached();
    return cached ? { keys: cached, fresh: false } : undefined;
  }
}
