import { constituencyDisplayEn, districts, isSharedConstituencyName } from '../../../../../rules/districts';

// How the dashboard shows stored values: IST date-times in the en-IN locale (ta-IN on
// Tamil screens), district and constituency names in the screen's language, and the
// stored 91-prefixed number as an Indian mobile number.

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

const localeOf = (language: string) => (language === 'ta' ? 'ta-IN' : 'en-IN');

/** A stored instant as an IST date and time, e.g. "20 Nov 2026, 11:00 pm". */
export function formatDateTime(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const locale = localeOf(language);
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'Asia/Kolkata',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    dateTimeFormats.set(locale, format);
  }
  return format.format(at);
}

const partFormats = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** The IST date and the IST time of an instant, apart (the table puts them on two lines when narrow). */
export function formatDateTimeParts(iso: string, language: string): { date: string; time: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { date: iso, time: '' };
  const locale = localeOf(language);
  let formats = partFormats.get(locale);
  if (!formats) {
    formats = {
      date: new Intl.DateTimeFormat(locale, {
        timeZone: 'Asia/Kolkata',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
      time: new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Kolkata', hour: 'numeric', minute: '2-digit' }),
    };
    partFormats.set(locale, formats);
  }
  return { date: formats.date.format(at), time: formats.time.format(at) };
}

/** A calendar day ('YYYY-MM-DD', no time zone of its own) in the screen's locale. */
export function formatDay(day: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const locale = localeOf(language);
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

/** Counts with Indian digit grouping (1,00,000), in both languages. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-IN');
}

/** '919876543210' -> '+91 98765 43210'; anything else as stored. */
export function formatPhone(stored: string): string {
  const m = /^91(\d{5})(\d{5})$/.exec(stored);
  return m ? `+91 ${m[1]} ${m[2]}` : stored;
}

const byName = new Map(districts.map((d) => [d.en, d]));

export function districtName(en: string | undefined, language: string): string | undefined {
  if (!en) return undefined;
  return language === 'ta' ? (byName.get(en)?.ta ?? en) : en;
}

export function constituencyName(
  districtEn: string | undefined,
  en: string | undefined,
  language: string,
): string | undefined {
  if (!en) return undefined;
  const district = districtEn ? byName.get(districtEn) : undefined;
  const found =
    district?.constituencies.find((c) => c.en === en) ??
    districts.flatMap((d) => d.constituencies).find((c) => c.en === en);
  const name = language === 'ta' ? (found?.ta ?? en) : constituencyDisplayEn(en);
  // ஆத்தூர் and திருப்பத்தூர் each name two constituencies: say which district's.
  if (district && isSharedConstituencyName(name)) return `${name} (${language === 'ta' ? district.ta : district.en})`;
  return name;
}
