import { constituencyDisplayEn, districts, isSharedConstituencyName } from '../../../../../rules/districts';

// The details row's constituency name; the staff area's other formatters are in
// lib/staff-format.ts.

const byName = new Map(districts.map((d) => [d.en, d]));

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
