import type { educations, genders, occupations } from '../../../../../rules/application-values';

// The application form as the visitor fills it: every value a string (or the terms
// box), so that inputs stay controlled and the whole thing fits in sessionStorage.
// No schema here: this is what the first view needs (the checking, with valibot and the
// districts, is in application-form.ts, loaded with the form).

type Gender = (typeof genders)[number];
type Education = (typeof educations)[number];
type Occupation = (typeof occupations)[number];

export interface FormValues {
  readonly alternate_phone_number: string;
  readonly name: string;
  readonly email: string;
  readonly gender: Gender | '';
  readonly date_of_birth: string;
  readonly revenue_district: string;
  readonly assembly_constituency: string;
  readonly education: Education | '';
  readonly occupation: Occupation | '';
  readonly is_already_member: 'yes' | 'no' | '';
  readonly motivation: string;
  readonly accept_terms: boolean;
}

export type FieldName = keyof FormValues;

/** The fields in the order they appear on screen: the first invalid one gets focus. */
export const fieldOrder: readonly FieldName[] = [
  'alternate_phone_number',
  'name',
  'email',
  'gender',
  'date_of_birth',
  'revenue_district',
  'assembly_constituency',
  'education',
  'occupation',
  'is_already_member',
  'motivation',
  'accept_terms',
];

export const emptyForm: FormValues = {
  alternate_phone_number: '',
  name: '',
  email: '',
  gender: '',
  date_of_birth: '',
  revenue_district: '',
  assembly_constituency: '',
  education: '',
  occupation: '',
  is_already_member: '',
  motivation: '',
  accept_terms: false,
};

/** Field name -> error code (`fieldErrors.<CODE>`). */
export type FieldErrors = Partial<Record<FieldName, string>>;

export function isFieldName(name: string): name is FieldName {
  return (fieldOrder as readonly string[]).includes(name);
}

/** Digits only, cut to `max`: what the numeric inputs keep while the visitor types. */
export function digitsOnly(raw: string, max: number): string {
  return raw.replace(/\D/g, '').slice(0, max);
}

/** A change of one field; choosing another district empties the constituency. */
export function updateField<K extends FieldName>(values: FormValues, name: K, value: FormValues[K]): FormValues {
  if (name === 'revenue_district' && value !== values.revenue_district) {
    return { ...values, revenue_district: value as string, assembly_constituency: '' };
  }
  return { ...values, [name]: value };
}
