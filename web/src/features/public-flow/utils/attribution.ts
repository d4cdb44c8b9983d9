import { type Attribution, attributionParams, cleanAttribution } from '../../../../../rules/attribution';

// Where the visitor came from (issue 19): a campaign's code (`c`), a member's referral code
// (`r`) and the UTM values of the link that opened the page, cleaned by the shared rule and
// kept in sessionStorage beside the flow (this tab only, gone when it closes) until the
// application is sent with them. Nothing reaches a server before the submit.
//
// - First touch: the first link in this tab that carries any well-formed attribution
//   wins, as a whole; a later link in the same tab (another poster, a shared link) changes
//   nothing until the application is sent. A link with none, or only malformed values,
//   counts for nothing.
// - The parameters are taken out of the address bar once kept (history.replaceState): a
//   reload, a bookmark or a shared screenshot then carries no one's referral code, and the
//   tab's copy is the one that counts. Nothing else reads the address: the language is a
//   stored choice, not a query parameter, and the public page has no router. Other
//   parameters and the hash stay.
// - Read just after the first view (components/public-flow.tsx), in a chunk of its own:
//   a page opened without parameters loads none of this.

export const ATTRIBUTION_STORAGE_KEY = 'membership_attribution';

const names: readonly string[] = Object.values(attributionParams);

/** The attribution in a query string (`?c=…&utm_source=…`), malformed parts dropped. */
export function attributionFromSearch(search: string): Attribution {
  const query = new URLSearchParams(search);
  return cleanAttribution({
    campaign: query.get(attributionParams.campaign),
    referral: query.get(attributionParams.referral),
    utm_source: query.get(attributionParams.utmSource),
    utm_medium: query.get(attributionParams.utmMedium),
    utm_campaign: query.get(attributionParams.utmCampaign),
  });
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // Blocked storage: the parameters stay in the address (below).
  }
}

function stored(): string | undefined {
  try {
    return storage()?.getItem(ATTRIBUTION_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * What this tab keeps, cleaned again (storage is the visitor's to edit). When nothing is
 * kept, the address's: parameters that could not be stored were left there.
 */
export function readAttribution(): Attribution {
  const raw = stored();
  if (!raw) return attributionFromSearch(window.location.search);
  try {
    return cleanAttribution(JSON.parse(raw));
  } catch {
    return {};
  }
}

/** After the application went: nothing kept for a next one. */
export function clearAttribution(): void {
  try {
    storage()?.removeItem(ATTRIBUTION_STORAGE_KEY);
  } catch {
    // Blocked storage: nothing was kept.
  }
}

/**
 * On the page's first view: keeps the address's attribution (first touch, above) and
 * takes its parameters out of the address bar. Answers what the tab keeps now.
 */
export function captureAttribution(): Attribution {
  const url = new URL(window.location.href);
  if (!names.some((name) => url.searchParams.has(name))) return readAttribution();
  const found = attributionFromSearch(url.search);
  if (!stored() && Object.keys(found).length > 0) {
    try {
      const store = storage();
      if (!store) return found;
      store.setItem(ATTRIBUTION_STORAGE_KEY, JSON.stringify(found));
    } catch {
      // Full storage: left in the address, which readAttribution falls back to.
      return found;
    }
  }
  for (const name of names) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return readAttribution();
}
