import * as v from 'valibot';
import {
  type ApplicationFields,
  type ApplicationFieldsInput,
  applicationSchema,
} from '../../../../../rules/application';
import { districts } from '../../../../../rules/districts';
import type { Language } from '../../../i18n/language';
import { type FieldErrors, type FieldName, fieldOrder, type FormValues, isFieldName } from './application-form-values';

// The shared schema does the checking, exactly as the server will. This module (valibot
// and the districts) loads with the form step, not with the first view.
export * from './application-form-values';

/** What the schema reads: unanswered fields are missing (REQUIRED), not empty strings. */
export function toApplicationInput(values: FormValues): Partial<ApplicationFieldsInput> {
  const input: Record<string, unknown> = {};
  for (const name of fieldOrder) {
    const value = values[name];
    if (name === 'is_already_member') {
      if (value) input[name] = value === 'yes';
    } else if (value !== '' || name === 'email') {
      input[name] = value;
    }
  }
  return input;
}

export type ValidationResult =
  { readonly ok: true; readonly application: ApplicationFields } | { readonly ok: false; readonly errors: FieldErrors };

function errorsOf(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    const name = typeof key === 'string' ? key : '';
    if (isFieldName(name)) errors[name] ??= /^[A-Z_]+$/.test(issue.message) ? issue.message : 'INVALID';
  }
  return errors;
}

// Valid answers for every field, used only to let the schema's cross-field checks run.
const probe: ApplicationFieldsInput = {
  alternate_phone_number: '',
  name: 'x',
  gender: 'Male',
  date_of_birth: '1990-01-01',
  revenue_district: districts[0]!.en,
  assembly_constituency: districts[0]!.constituencies[0]!.en,
  education: 'Engineering',
  occupation: 'Student',
  is_already_member: false,
  motivation: 'x',
  accept_terms: true,
};

/**
 * The same check as the server's: applicationSchema({ now, verifiedMobile }). The
 * schema runs its cross-field checks (age, alternate number, constituency) only once
 * every field is well-formed; so that "under 18" shows while other fields are still
 * empty, those checks also run on the well-formed answers alone.
 */
export function validateApplication(
  values: FormValues,
  options: { now: Date; verifiedMobile: string },
): ValidationResult {
  const schema = applicationSchema(options);
  const input = toApplicationInput(values);
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return { ok: true, application: parsed.output };

  const errors = errorsOf(parsed.issues);
  const wellFormed = Object.fromEntries(Object.entries(input).filter(([name]) => !isFieldName(name) || !errors[name]));
  const alternate = options.verifiedMobile.startsWith('9') ? '8000000000' : '9000000000';
  const crossChecked = v.safeParse(schema, { ...probe, alternate_phone_number: alternate, ...wellFormed });
  if (!crossChecked.success) {
    for (const [name, code] of Object.entries(errorsOf(crossChecked.issues)) as [FieldName, string][]) {
      // Only for answers the visitor gave: the probe's own pairing is not theirs.
      if (name in wellFormed) errors[name] ??= code;
    }
  }
  return { ok: false, errors };
}

/**
 * Server field errors (`{ fields: { name: CODE } }`) mapped onto the form; a path may
 * carry an `application.` prefix. Returns undefined when none names a form field.
 */
export function fieldErrorsFromServer(fields: Readonly<Record<string, string>> | undefined): FieldErrors | undefined {
  if (!fields) return undefined;
  const errors: FieldErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    const name = path.replace(/^application\./, '').split('.')[0] ?? '';
    if (isFieldName(name)) errors[name] ??= code;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export function firstInvalidField(errors: FieldErrors): FieldName | undefined {
  return fieldOrder.find((name) => errors[name] !== undefined);
}

export interface Choice {
  /** The English name: what is stored and sent. */
  readonly value: string;
  /** The name in the current language. */
  readonly label: string;
}

const collators = new Map<Language, Intl.Collator>();
function collator(language: Language): Intl.Collator {
  let c = collators.get(language);
  if (!c) {
    c = new Intl.Collator(language === 'ta' ? 'ta-IN' : 'en-IN');
    collators.set(language, c);
  }
  return c;
}

/** All 38 districts, named and sorted in the given language. */
export function districtChoices(language: Language): Choice[] {
  return districts
    .map((d) => ({ value: d.en, label: d[language] }))
    .sort((a, b) => collator(language).compare(a.label, b.label));
}

/** The constituencies of a district (by English name), named and sorted in the given language. */
export function constituencyChoices(district: string, language: Language): Choice[] {
  const found = districts.find((d) => d.en === district);
  if (!found) return [];
  return found.constituencies
    .map((c) => ({ value: c.en, label: c[language] }))
    .sort((a, b) => collator(language).compare(a.label, b.label));
}
