// The dashboard's search box (issue 18): what a query means, and which rows it finds.
// A query has one of three shapes, each answered through the search index kept by the
// applications stream's consumer (lambdas/adapters/search-index.ts), never by a scan:
// - a phone number, whole or its last 4 to 10 digits ('+91 98765 43210', '43210');
// - an email address, whole, in any case;
// - words, each the start of a word of the name, in Latin or Tamil script, in any case
//   and with or without accents ('kav', 'KAVYA R', 'கவி').
// `matchesSearch` is the rule itself, as a scan would apply it: the index must return
// exactly the rows it accepts (test/integration/search.test.ts).

/** Digits with the separators people write numbers with, and an optional leading '+'. */
const PHONE_SHAPED = /^\(?\+?[\d\s\-().]*\d[\d\s\-().]*$/;

/** Fewest digits a part of a number may have: 4 digits name about one applicant in 10,000. */
const MIN_PHONE_DIGITS = 4;
/** Words of a name the index keeps; a longer name is still found by its first words. */
const MAX_NAME_WORDS = 12;

/**
 * A query shaped like a phone number as the digits of the national number, so that
 * '86846 13282', '+91 86846 13282', '086846-13282' and '0091 8684613282' all mean
 * '8684613282'. Part of a number is kept as typed ('13282').
 */
export function phoneDigits(query: string): string {
  const trimmed = query.trim();
  let digits = trimmed.replace(/\D/g, '');
  // '00' dials out of India only before a whole number: '0007' is the end of one.
  const international = /^\(?\+/.test(trimmed) || (digits.startsWith('00') && digits.length > 10);
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

/** Accents of Latin letters (combining marks after NFD); Tamil's vowel signs are not among them. */
const LATIN_ACCENTS = /[\u0300-\u036f]/g;
/** Zero-width characters some keyboards put inside Tamil words. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;

/**
 * Text as the index compares it: canonically decomposed (so that a Tamil vowel sign typed
 * in one piece or two compares equal), without Latin accents or zero-width characters,
 * lower case.
 */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(LATIN_ACCENTS, '').replace(ZERO_WIDTH, '').toLowerCase();
}

/** The distinct words of a name, folded: runs of letters, their marks and digits. */
export function nameWords(name: string): string[] {
  const words = foldText(name)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w !== '');
  return [...new Set(words)].slice(0, MAX_NAME_WORDS);
}

export type SearchQuery =
  | { readonly kind: 'phone'; readonly digits: string }
  | { readonly kind: 'email'; readonly email: string }
  | { readonly kind: 'name'; readonly words: readonly string[] };

/** Why a query cannot be answered from the index: the search box shows it. */
export type SearchQueryError = 'TOO_SHORT';

export function parseSearchQuery(query: string): SearchQuery | SearchQueryError {
  const trimmed = query.trim();
  if (PHONE_SHAPED.test(trimmed)) {
    const digits = phoneDigits(trimmed);
    return digits.length < MIN_PHONE_DIGITS ? 'TOO_SHORT' : { kind: 'phone', digits };
  }
  if (trimmed.includes('@')) return { kind: 'email', email: trimmed.toLowerCase() };
  const words = nameWords(trimmed);
  return words.length === 0 ? 'TOO_SHORT' : { kind: 'name', words };
}

/** What the search reads of an application. */
export interface Searchable {
  readonly name: string;
  /** As stored: '91' and the ten digits. */
  readonly phone_number: string;
  readonly email?: string | null;
}

/** The national number of a stored '91…' number. */
export const nationalNumber = (phone: string) => phone.slice(-10);

/** Whether every word of the query starts a word of the name. */
export const wordsMatch = (query: readonly string[], name: readonly string[]) =>
  query.every((q) => name.some((w) => w.startsWith(q)));

/** The search's rule, as a scan would apply it to every application. */
export function matchesSearch(query: SearchQuery, application: Searchable): boolean {
  switch (query.kind) {
    case 'phone':
      return nationalNumber(application.phone_number).endsWith(query.digits);
    case 'email':
      return (application.email ?? '').trim().toLowerCase() === query.email;
    case 'name':
      return wordsMatch(query.words, nameWords(application.name));
  }
}
