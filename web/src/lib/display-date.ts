import { formatDate, parseDate } from '../../../rules/ist';

// Dates on every screen are typed and shown day first, dd/mm/yyyy, whatever the browser's
// locale (a native date input would follow the locale: mm/dd/yyyy on an en-US browser).
// Values stay 'YYYY-MM-DD' everywhere else: in state, in the address bar, in the API.

/** 'YYYY-MM-DD' -> 'DD/MM/YYYY'; anything else (what is being typed) as it is. */
export function toDisplayDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m && parseDate(value) ? `${m[3]}/${m[2]}/${m[1]}` : value;
}

/**
 * A typed date as 'YYYY-MM-DD': '15/01/2001' (or 15-01-2001, 15.01.2001, 15 01 2001, 5/1/2001,
 * 15012001) or a pasted '2001-01-15'. '' for nothing typed; undefined when it names no day.
 */
export function parseDisplayDate(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  if (parseDate(trimmed)) return trimmed;
  const m = /^(\d{1,2})[/.\-\s](\d{1,2})[/.\-\s](\d{4})$/.exec(trimmed) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  if (!m) return undefined;
  const value = formatDate({ year: Number(m[3]), month: Number(m[2]), day: Number(m[1]) });
  return parseDate(value) ? value : undefined;
}

/**
 * Slashes put in as digits are typed ('150' -> '15/0', '15/012' -> '15/01/2'), so that a
 * phone's number pad is enough; text with separators of the typist's own ('5/1/2001') is left as typed.
 */
export function withSlashes(text: string): string {
  if (!/^[\d/]*$/.test(text)) return text;
  const parts = text.split('/');
  if (parts.length > 3 || parts.slice(0, -1).some((p) => p.length !== 2)) return text;
  const digits = text.replaceAll('/', '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}
