import { districts } from '../../../rules/districts';
import { UNKNOWN } from '../../../rules/report';

// How the staff area shows stored values, on every staff screen: IST dates and times in
// the en-IN locale (ta-IN on Tamil screens), counts with Indian digit grouping, the stored
// 91-prefixed number as an Indian mobile number, districts in the screen's language.

const localeOf = (language: string): string => (language === 'ta' ? 'ta-IN' : 'en-IN');

const formats = new Map<string, Intl.DateTimeFormat>();
/** One Intl.DateTimeFormat per kind and locale: building one is slow, a table shows hundreds of dates. */
function cached(kind: string, language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = localeOf(language);
  const key = `${kind}:${locale}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

const IST = 'Asia/Kolkata';
const dayOptions = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/** A stored instant as an IST date and time, e.g. "20 Nov 2026, 11:00 pm". */
export function formatDateTime(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return cached('dt', language, { timeZone: IST, ...dayOptions, hour: 'numeric', minute: '2-digit' }).format(at);
}

/** The IST date and the IST time of an instant, apart (the table puts them on two lines when narrow). */
export function formatDateTimeParts(iso: string, language: string): { date: string; time: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { date: iso, time: '' };
  return {
    date: cached('date', language, { timeZone: IST, ...dayOptions }).format(at),
    time: cached('time', language, { timeZone: IST, hour: 'numeric', minute: '2-digit' }).format(at),
  };
}

/** 'YYYY-MM-DD' as the UTC midnight of that day (a calendar day has no time zone of its own). */
function calendarDay(day: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
}

/** A calendar day ('YYYY-MM-DD') in the screen's locale: "21 Nov 2026". */
export function formatDay(day: string, language: string): string {
  const at = calendarDay(day);
  return at ? cached('day', language, { timeZone: 'UTC', ...dayOptions }).format(at) : day;
}

/**
 * A calendar day as day and month: "21 Nov", "21 நவம்பர்". Day first in both languages,
 * as the tables show dates: ta-IN's short form puts the month first ("நவ. 21"), its long
 * form does not.
 */
export function formatShortDay(day: string, language: string): string {
  const at = calendarDay(day);
  if (!at) return day;
  const month = language === 'ta' ? 'long' : 'short';
  return cached('short', language, { timeZone: 'UTC', day: 'numeric', month }).format(at);
}

/** Counts with Indian digit grouping (1,00,000), in both languages. */
export const formatCount = (n: number): string => n.toLocaleString('en-IN');

/** '919876543210' -> '+91 98765 43210'; anything else as stored. */
export function formatPhone(stored: string): string {
  const m = /^91(\d{5})(\d{5})$/.exec(stored);
  return m ? `+91 ${m[1]} ${m[2]}` : stored;
}

const byName = new Map(districts.map((d) => [d.en, d]));

/** A district's stored (English) name in the screen's language; undefined when none is stored. */
export function districtName(en: string | undefined, language: string): string | undefined {
  if (!en) return undefined;
  return language === 'ta' ? (byName.get(en)?.ta ?? en) : en;
}

/** A report's district, or `unknown` (the translated word) for none or the reports' Unknown. */
export function districtLabel(en: string | null | undefined, language: string, unknown: string): string {
  return !en || en === UNKNOWN ? unknown : (districtName(en, language) ?? unknown);
}

/** The districts of a scoped session (ids from /api/admin/me), in the data file's order; undefined: every district. */
export function scopedDistricts(ids: readonly string[]): typeof districts | undefined {
  return ids.length === 0 ? undefined : districts.filter((d) => ids.includes(d.id));
}
