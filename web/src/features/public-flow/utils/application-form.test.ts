import { describe, expect, it } from 'vitest';
import { districts } from '../../../../../rules/districts';
import {
  constituencyChoices,
  digitsOnly,
  districtChoices,
  emptyForm,
  fieldErrorsFromServer,
  firstInvalidField,
  type FormValues,
  toApplicationInput,
  updateField,
  validateApplication,
} from './application-form';

const now = new Date('2026-11-21T10:00:00+05:30');
const verifiedMobile = '9876543210';

const madurai = districts.find((d) => d.en === 'Madurai')!;
const filled: FormValues = {
  alternate_phone_number: '9000000001',
  name: '  Kavya Raman ',
  email: '',
  gender: 'Female',
  date_of_birth: '2001-05-14',
  revenue_district: madurai.en,
  assembly_constituency: madurai.constituencies[0]!.en,
  education: 'Engineering',
  occupation: 'Student',
  is_already_member: 'no',
  motivation: 'To serve students in my district.',
  accept_terms: true,
};

describe('digits-only inputs', () => {
  it('keeps digits and cuts to the length', () => {
    expect(digitsOnly('98a7-6 54.3210999', 10)).toBe('9876543210');
    expect(digitsOnly(' 12 34 56 78', 6)).toBe('123456');
    expect(digitsOnly('abc', 6)).toBe('');
  });
});

describe('district and constituency', () => {
  it('empties the constituency when another district is chosen, and only then', () => {
    const chosen = updateField(filled, 'revenue_district', madurai.en);
    expect(chosen.assembly_constituency).toBe(filled.assembly_constituency);
    const changed = updateField(filled, 'revenue_district', 'Chennai');
    expect(changed).toMatchObject({ revenue_district: 'Chennai', assembly_constituency: '' });
    expect(updateField(filled, 'revenue_district', '').assembly_constituency).toBe('');
  });

  it('lists all 38 districts, named and sorted in the language shown, with English values', () => {
    for (const language of ['en', 'ta'] as const) {
      const choices = districtChoices(language);
      expect(choices).toHaveLength(38);
      const labels = choices.map((c) => c.label);
      expect(labels).toEqual([...labels].sort(new Intl.Collator(language === 'ta' ? 'ta-IN' : 'en-IN').compare));
      expect(new Set(choices.map((c) => c.value))).toEqual(new Set(districts.map((d) => d.en)));
    }
    expect(districtChoices('ta').find((c) => c.value === 'Madurai')?.label).toBe('மதுரை');
  });

  it("lists a district's constituencies in the language shown, none without a district", () => {
    expect(constituencyChoices('', 'en')).toEqual([]);
    const chennai = constituencyChoices('Chennai', 'ta');
    expect(chennai).toHaveLength(16);
    expect(chennai.every((c) => /[\u0B80-\u0BFF]/.test(c.label))).toBe(true);
    expect(constituencyChoices('Coimbatore', 'en')).toHaveLength(10);
  });
});

describe('validation with the shared schema', () => {
  it('accepts a complete form and gives the values the API takes', () => {
    const result = validateApplication(filled, { now, verifiedMobile });
    expect(result).toEqual({
      ok: true,
      application: expect.objectContaining({
        name: 'Kavya Raman',
        is_already_member: false,
        accept_terms: true,
      }) as unknown,
    });
    if (result.ok) expect(result.application.email).toBeUndefined();
  });

  it('says REQUIRED for every unanswered field of an empty form, email excepted', () => {
    const result = validateApplication(emptyForm, { now, verifiedMobile });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      alternate_phone_number: 'REQUIRED',
      name: 'REQUIRED',
      gender: 'REQUIRED',
      date_of_birth: 'REQUIRED',
      revenue_district: 'REQUIRED',
      assembly_constituency: 'REQUIRED',
      education: 'REQUIRED',
      occupation: 'REQUIRED',
      is_already_member: 'REQUIRED',
      motivation: 'REQUIRED',
      accept_terms: 'TERMS_REQUIRED',
    });
    expect(firstInvalidField(result.errors)).toBe('alternate_phone_number');
  });

  it('refuses an applicant under 18 even while other fields are still empty', () => {
    const result = validateApplication({ ...emptyForm, date_of_birth: '2008-11-22' }, { now, verifiedMobile });
    expect(result.ok === false && result.errors.date_of_birth).toBe('UNDER_AGE');
    const eighteen = validateApplication({ ...emptyForm, date_of_birth: '2008-11-21' }, { now, verifiedMobile });
    expect(eighteen.ok === false && eighteen.errors.date_of_birth).toBeUndefined();
    expect(validateApplication({ ...filled, date_of_birth: '2008-11-22' }, { now, verifiedMobile })).toEqual({
      ok: false,
      errors: { date_of_birth: 'UNDER_AGE' },
    });
  });

  it('refuses the verified number as the alternate number, and malformed answers', () => {
    const result = validateApplication(
      { ...filled, alternate_phone_number: verifiedMobile, email: 'not-an-email', assembly_constituency: 'Mylapore' },
      { now, verifiedMobile },
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        alternate_phone_number: 'ALTERNATE_PHONE_SAME',
        email: 'INVALID_EMAIL',
        assembly_constituency: 'REQUIRED',
      },
    });
    const short = validateApplication({ ...filled, alternate_phone_number: '98765' }, { now, verifiedMobile });
    expect(short.ok === false && short.errors.alternate_phone_number).toBe('ALTERNATE_PHONE_DIGITS');
  });

  it('sends yes/no as a boolean and leaves unanswered choices out', () => {
    expect(toApplicationInput({ ...emptyForm, is_already_member: 'yes' })).toEqual({
      email: '',
      is_already_member: true,
      accept_terms: false,
    });
  });
});

describe('server field errors', () => {
  it('map onto the form by field name, with or without an application. prefix', () => {
    expect(fieldErrorsFromServer({ date_of_birth: 'UNDER_AGE', 'application.email': 'INVALID_EMAIL' })).toEqual({
      date_of_birth: 'UNDER_AGE',
      email: 'INVALID_EMAIL',
    });
  });

  it('ignore paths that are not form fields', () => {
    expect(fieldErrorsFromServer({ verificationToken: 'REQUIRED' })).toBeUndefined();
    expect(fieldErrorsFromServer(undefined)).toBeUndefined();
  });
});
