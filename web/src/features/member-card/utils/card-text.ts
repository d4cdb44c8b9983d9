import { constituencyDisplayEn, isSharedConstituencyName, matchDistrict } from '../../../../../rules/districts';

// Names and dates as the card and verification pages show them, in the page's language.

/** The district (an id, or a stored English name) in `language`; as given when unknown. */
export function districtName(district: string, language: string): string {
  const found = district ? matchDistrict(district) : undefined;
  if (!found) return district;
  return language === 'ta' ? found.ta : found.en;
}

/**
 * The constituency with its district, always: ஆத்தூர் and திருப்பத்தூர் each name two
 * constituencies, and a card is read on its own (docs/TAMIL.md).
 */
export function constituencyWithDistrict(district: string, constituency: number | undefined, language: string) {
  const found = district ? matchDistrict(district) : undefined;
  const place = found?.constituencies.find((c) => c.no === constituency);
  if (!found || !place) return undefined;
  const name = language === 'ta' ? place.ta : constituencyDisplayEn(place.en);
  const districtLabel = language === 'ta' ? found.ta : found.en;
  // A shared name says its district even where the district is printed next to it.
  return isSharedConstituencyName(place.en) || name !== districtLabel ? `${name}, ${districtLabel}` : name;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD' as "20 November 2026" (en-IN) or "20 நவம்பர் 2026" (ta-IN): full month names, day first. */
export function formatCardDay(day: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const locale = language === 'ta' ? 'ta-IN' : 'en-IN';
  let format = dayFormats.get(locale);
  if (!format) {
    // The day is a calendar day: formatted in UTC from its UTC midnight, it cannot shift.
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))).replace(',', '');
}
