import { cleanAttribution } from './campaigns';
import { applicationStatuses, genders, legacyEducations, occupations } from './application';
import { matchConstituency, matchDistrict } from './districts';
import { parseDate } from './ist';
import { isValidMobile } from './phone';
import { isEmail } from './schema';

// Rows exported from the first version (the columns of spec section 3), checked before
// import. Legacy data is looser than the form: gender, birth date, district and
// education may be missing (reports count them as Unknown), and "Others" is a valid
// education. What is present must be valid.

export const legacyColumns = [
  'id',
  'phone_number',
  'alternate_phone_number',
  'name',
  'email',
  'gender',
  'date_of_birth',
  'revenue_district',
  'assembly_constituency',
  'education',
  'specialization',
  'occupation',
  'address',
  'is_already_member',
  'want_to_volunteer',
  'want_to_join_and_volunteer',
  'motivation',
  'application_status',
  'submitted_at',
  'updated_at',
] as const;

/**
 * Optional columns of where each applicant came from (issue 19): a campaign's code (the
 * import resolves it to the campaign, whatever its status or dates) and the UTM values.
 */
export const sourceColumns = ['campaign', 'utm_source', 'utm_medium', 'utm_campaign'] as const;

export interface LegacyApplication {
  id: string;
  phone_number: string;
  alternate_phone_number?: string;
  name: string;
  email?: string;
  gender?: (typeof genders)[number];
  date_of_birth?: string;
  revenue_district?: string;
  assembly_constituency?: string;
  education?: (typeof legacyEducations)[number];
  specialization?: string;
  occupation?: (typeof occupations)[number];
  address?: string;
  is_already_member: boolean;
  want_to_volunteer: boolean;
  want_to_join_and_volunteer: boolean;
  motivation?: string;
  application_status: (typeof applicationStatuses)[number];
  submitted_at: string;
  updated_at: string;
  /** The `campaign` column's code, lower-case; the import resolves it to `campaign_id`. */
  campaign_code?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

/** The source columns of a row, each well-formed or named as a reason (an empty cell is no value). */
function sourceOf(row: Readonly<Record<string, string | undefined>>, reasons: string[]) {
  const raw = Object.fromEntries(sourceColumns.map((c) => [c, text(row[c])]));
  const clean = cleanAttribution(raw);
  for (const column of sourceColumns) {
    const kept = column === 'campaign' ? clean.campaign : clean[column];
    if (raw[column] && !kept) {
      reasons.push(
        column === 'campaign'
          ? 'campaign is not a campaign code'
          : `${column} is not valid text of 100 characters at most`,
      );
    }
  }
  return {
    ...(clean.campaign && { campaign_code: clean.campaign }),
    ...(clean.utm_source && { utm_source: clean.utm_source }),
    ...(clean.utm_medium && { utm_medium: clean.utm_medium }),
    ...(clean.utm_campaign && { utm_campaign: clean.utm_campaign }),
  };
}

export type LegacyRowResult = { ok: true; value: LegacyApplication } | { ok: false; reasons: string[] };

const text = (raw: string | undefined) => (raw ?? '').trim();

function oneOf<T extends string>(values: readonly T[], raw: string): T | undefined {
  const key = raw.toLowerCase().replace(/[\s_-]+/g, ' ');
  return values.find((v) => v.toLowerCase().replace(/[\s_-]+/g, ' ') === key);
}

function bool(raw: string): boolean | undefined {
  const v = raw.toLowerCase();
  if (['', 'false', 'no', 'n', '0', 'f'].includes(v)) return false;
  if (['true', 'yes', 'y', '1', 't'].includes(v)) return true;
  return undefined;
}

function timestamp(raw: string): string | undefined {
  if (!raw) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Checks one CSV record (header name -> cell). Every problem is named, not only the first. */
export function parseLegacyRow(row: Readonly<Record<string, string | undefined>>): LegacyRowResult {
  const reasons: string[] = [];
  const get = (name: (typeof legacyColumns)[number]) => text(row[name]);

  const id = get('id');
  if (!id) reasons.push('id is missing');
  else if (id.length > 100 || !/^[\w-]+$/.test(id)) reasons.push('id is not a valid identifier');

  const phoneDigits = get('phone_number').replace(/\D/g, '');
  const ten = phoneDigits.length === 12 && phoneDigits.startsWith('91') ? phoneDigits.slice(2) : phoneDigits;
  if (!isValidMobile(ten)) reasons.push('phone_number is not a 10-digit Indian mobile number');

  const alternate = get('alternate_phone_number').replace(/\D/g, '');
  if (alternate && alternate.length !== 10) reasons.push('alternate_phone_number is not 10 digits');

  const name = get('name');
  if (!name) reasons.push('name is missing');
  else if (name.length > 100) reasons.push('name is longer than 100 characters');

  const email = get('email').toLowerCase();
  if (email && !isEmail(email)) reasons.push('email is not an email address');

  const genderRaw = get('gender');
  const gender = genderRaw ? oneOf(genders, genderRaw) : undefined;
  if (genderRaw && !gender) reasons.push(`gender "${genderRaw}" is not Male or Female`);

  const dobRaw = get('date_of_birth').slice(0, 10);
  if (dobRaw && !parseDate(dobRaw)) reasons.push('date_of_birth is not a date (YYYY-MM-DD)');

  const districtRaw = get('revenue_district');
  const district = districtRaw ? matchDistrict(districtRaw) : undefined;
  if (districtRaw && !district) reasons.push(`revenue_district "${districtRaw}" is not a Tamil Nadu district`);
  const constituencyRaw = get('assembly_constituency');
  const constituency = district && constituencyRaw ? matchConstituency(district, constituencyRaw) : undefined;
  if (district && constituencyRaw && !constituency) {
    reasons.push(`assembly_constituency "${constituencyRaw}" is not in ${district.en}`);
  }

  const educationRaw = get('education');
  const education = educationRaw ? oneOf(legacyEducations, educationRaw) : undefined;
  if (educationRaw && !education) reasons.push(`education "${educationRaw}" is not one of the options`);
  const occupationRaw = get('occupation');
  const occupation = occupationRaw ? oneOf(occupations, occupationRaw) : undefined;
  if (occupationRaw && !occupation) reasons.push(`occupation "${occupationRaw}" is not one of the options`);

  const flags = (['is_already_member', 'want_to_volunteer', 'want_to_join_and_volunteer'] as const).map((f) => {
    const value = bool(get(f));
    if (value === undefined) reasons.push(`${f} is not true or false`);
    return value ?? false;
  });

  const statusRaw = get('application_status');
  const status = statusRaw ? oneOf(applicationStatuses, statusRaw) : 'pending';
  if (!status) reasons.push(`application_status "${statusRaw}" is not a status`);

  const submittedAt = timestamp(get('submitted_at'));
  if (!submittedAt) reasons.push('submitted_at is missing or not a time');
  const updatedRaw = get('updated_at');
  const updatedAt = updatedRaw ? timestamp(updatedRaw) : submittedAt;
  if (updatedRaw && !updatedAt) reasons.push('updated_at is not a time');

  const motivation = get('motivation');
  if (motivation.length > 5000) reasons.push('motivation is longer than 5000 characters');
  const source = sourceOf(row, reasons);

  if (reasons.length > 0 || !status || !submittedAt) return { ok: false, reasons };
  const optional = <K extends string, V>(key: K, value: V | undefined | '') =>
    (value === undefined || value === '' ? {} : { [key]: value }) as Partial<Record<K, V>>;
  return {
    ok: true,
    value: {
      id,
      phone_number: `91${ten}`,
      name,
      is_already_member: flags[0]!,
      want_to_volunteer: flags[1]!,
      want_to_join_and_volunteer: flags[2]!,
      application_status: status,
      submitted_at: submittedAt,
      updated_at: updatedAt ?? submittedAt,
      ...optional('alternate_phone_number', alternate),
      ...optional('email', email),
      ...optional('gender', gender),
      ...optional('date_of_birth', dobRaw),
      ...optional('revenue_district', district?.en),
      ...optional('assembly_constituency', constituency?.en),
      ...optional('education', education),
      ...optional('specialization', get('specialization')),
      ...optional('occupation', occupation),
      ...optional('address', get('address')),
      ...optional('motivation', motivation),
      ...source,
    },
  };
}
