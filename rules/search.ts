// The dashboard's search box: the applications' search text holds each name, email and
// stored phone number ('919876543210') in lower case, so a query is matched in that form.

/** Digits with the separators people write numbers with, and an optional leading '+'. */
const PHONE_SHAPED = /^\(?\+?[\d\s\-().]*\d[\d\s\-().]*$/;

/**
 * A query as the search text holds it: lower case; and a query shaped like a phone number
 * as the digits of the national number, so that '86846 13282', '+91 86846 13282',
 * '086846-13282' and '0091 8684613282' find what '8684613282' finds. Part of a number
 * works too ('+91 86846' finds every number starting 86846).
 */
export function normalizeSearchQuery(query: string): string {
  const trimmed = query.trim();
  if (!PHONE_SHAPED.test(trimmed)) return trimmed.toLowerCase();
  let digits = trimmed.replace(/\D/g, '');
  const international = /^\(?\+/.test(trimmed) || digits.startsWith('00');
  if (international) {
    digits = digits.replace(/^00/, '');
    if (digits.startsWith('91')) digits = digits.slice(2);
  } else if (digits.length === 12 && digits.startsWith('91')) {
    digits = digits.slice(2);
  }
  // The trunk prefix: '086846 13282', '0 86846 13282', '+91 (0) 86846 13282'.
  const trunk = /^\(?\+?\)?(?:\s*(?:00\s*)?91)?[\s\-(]*0[\s\-)]/.test(trimmed);
  if (digits.startsWith('0') && (digits.length === 11 || trunk)) digits = digits.slice(1);
  return digits;
}
