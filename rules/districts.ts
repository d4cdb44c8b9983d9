// The 38 revenue districts and 234 assembly constituencies of Tamil Nadu, in English
// and Tamil. The data file is the product's own copy of shared reference data.
import data from './data/tamil-nadu-constituencies.json';

export interface Constituency {
  readonly no: number;
  readonly en: string;
  readonly ta: string;
}

export interface District {
  readonly id: string;
  readonly en: string;
  readonly ta: string;
  readonly constituencies: readonly Constituency[];
}

export const districts: readonly District[] = data.districts;

const byId = new Map(districts.map((d) => [d.id, d]));

function findDistrict(id: string): District | undefined {
  return byId.get(id);
}

/** True when the constituency (by number) belongs to the district. */
export function constituencyBelongsTo(districtId: string, constituencyNo: number): boolean {
  return findDistrict(districtId)?.constituencies.some((c) => c.no === constituencyNo) ?? false;
}

// Spellings seen in older exports and in common use, normalised (lower case, no spaces
// or punctuation), mapped to the reference name.
const districtAliases: Record<string, string> = {
  kanyakumari: 'Kanniyakumari',
  trichy: 'Tiruchirappalli',
  tiruchi: 'Tiruchirappalli',
  tiruchirapalli: 'Tiruchirappalli',
  trichirappalli: 'Tiruchirappalli',
  tiruchchirappalli: 'Tiruchirappalli',
  thenilgiris: 'Nilgiris',
  ooty: 'Nilgiris',
  tuticorin: 'Thoothukudi',
  thoothukkudi: 'Thoothukudi',
  kanchipuram: 'Kancheepuram',
  villupuram: 'Viluppuram',
  thiruvallur: 'Tiruvallur',
  thiruvarur: 'Tiruvarur',
  thirunelveli: 'Tirunelveli',
  nellai: 'Tirunelveli',
  tirupur: 'Tiruppur',
  thiruppur: 'Tiruppur',
  tirupattur: 'Tirupathur',
  thirupathur: 'Tirupathur',
  thiruvannamalai: 'Tiruvannamalai',
  sivagangai: 'Sivaganga',
  pudukottai: 'Pudukkottai',
  ramnad: 'Ramanathapuram',
  kovai: 'Coimbatore',
  madras: 'Chennai',
};

// Names with the ரா sound are written without the leading இ (docs/TAMIL.md: so that they
// sort together); older lists write இராமநாதபுரம், so both spellings match.
const normalise = (s: string) =>
  s
    .normalize('NFC')
    .toLowerCase()
    .replace(/(^|[\s.])இரா/gu, '$1ரா')
    .replace(/[\s.\-()'’]+/g, '');

const districtByKey = new Map<string, District>();
for (const d of districts) {
  districtByKey.set(normalise(d.en), d);
  districtByKey.set(normalise(d.ta), d);
  districtByKey.set(normalise(d.id), d);
}
for (const [alias, name] of Object.entries(districtAliases)) {
  const d = districts.find((x) => x.en === name);
  if (d) districtByKey.set(alias, d);
}

/** The district a name refers to, in any case, in Tamil, or by a common alternative spelling. */
export function matchDistrict(name: string): District | undefined {
  return districtByKey.get(normalise(name));
}

// Tamil names shown otherwise than officially, with the names that still match them. The
// official டாக்டர் ராதாகிருஷ்ணன் நகர் is known as ஆர்.கே. நகர்; both together do not fit a
// select at 360 px (260 px of room, 292 px of text), so the page shows
// "ராதாகிருஷ்ணன் நகர் (ஆர்.கே.)" (252 px).
const tamilAliases: Readonly<Record<string, readonly string[]>> = {
  'ராதாகிருஷ்ணன் நகர் (ஆர்.கே.)': ['டாக்டர் ராதாகிருஷ்ணன் நகர்', 'ராதாகிருஷ்ணன் நகர்', 'ஆர்.கே. நகர்', 'ஆர்.கே.நகர்'],
};
const tamilNames = (s: string): readonly string[] => [s, ...(tamilAliases[s] ?? [])];

/** The district's constituency a name refers to (English or Tamil, any case; with or without the bracketed common name). */
export function matchConstituency(district: District, name: string): Constituency | undefined {
  const key = normalise(name);
  return district.constituencies.find(
    (c) => normalise(c.en) === key || tamilNames(c.ta).some((n) => normalise(n) === key),
  );
}

/**
 * English names people know better by another name. The Tamil data carries it in brackets
 * already; the English name stays as stored (applications keep it), so screens add it.
 */
const knownAsEn: Readonly<Record<string, string>> = { 'Dr. Radhakrishnan Nagar': 'R.K. Nagar' };

/** 'Dr. Radhakrishnan Nagar' -> 'Dr. Radhakrishnan Nagar (R.K. Nagar)'; other names as they are. */
export function constituencyDisplayEn(en: string): string {
  const known = knownAsEn[en];
  return known ? `${en} (${known})` : en;
}

/**
 * Names two districts share (ஆத்தூர்: Dindigul and Salem; திருப்பத்தூர்: Sivaganga and
 * Tirupathur): wherever such a constituency is shown on its own, its district goes with it.
 */
export function isSharedConstituencyName(name: string): boolean {
  return districts.filter((d) => d.constituencies.some((c) => c.en === name || c.ta === name)).length > 1;
}
