import { districts } from '../../../../../rules/districts';
import { UNKNOWN } from '../../../../../rules/report';

// How the Reports page shows values: days as "21 Nov" (en-IN, ta-IN on Tamil screens),
// instants as IST date-times, districts in the screen's language.

export const localeOf = (language: string): string => (language === 'ta' ? 'ta-IN' : 'en-IN');

const cache = new Map<string, Intl.DateTimeFormat>();
function format(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = cache.get(key);
  if (!f) cache.set(key, (f = make()));
  return f;
}

/**
 * An IST calendar day ('YYYY-MM-DD') as day and month: "21 Nov", "21 நவம்பர்". Day first
 * in both languages, as the tables show dates: ta-IN's short form puts the month first
 * ("நவ. 21"), its long form does not.
 */
export function formatShortDay(day: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const locale = localeOf(language);
  return format(
    `short:${locale}`,
    () => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: language === 'ta' ? 'long' : 'short' }),
  ).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

/** A stored instant as an IST date and time: "20 Nov 2026, 11:00 pm". */
export function formatDateTime(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const locale = localeOf(language);
  return format(
    `dt:${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        timeZone: 'Asia/Kolkata',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }),
  ).format(at);
}

export const formatCount = (n: number): string => n.toLocaleString('en-IN');

/** '919876543210' -> '+91 98765 43210'; anything else as stored. */
export function formatPhone(stored: string): string {
  const m = /^91(\d{5})(\d{5})$/.exec(stored);
  return m ? `+91 ${m[1]} ${m[2]}` : stored;
}

const byName = new Map(districts.map((d) => [d.en, d.ta]));

/** A district (or Unknown) in the screen's language; `unknown` is the translated word. */
export function districtLabel(en: string | null | undefined, language: string, unknown: string): string {
  if (!en || en === UNKNOWN) return unknown;
  return language === 'ta' ? (byName.get(en) ?? en) : en;
}
