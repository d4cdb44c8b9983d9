import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { FormMessages } from '../../../i18n/en-form';
import type { Language } from '../../../i18n/language';
import { ApiError } from '../../../lib/api-client';
import { submitApplication } from '../api/submit-application';
import { type Failure, failureOf } from '../components/failure-message';
import { fieldAria } from '../components/form-field';
import {
  type FieldErrors,
  type FieldName,
  type FormValues,
  fieldErrorsFromServer,
  firstInvalidField,
  updateField,
  validateApplication,
} from '../utils/application-form';
import { clearAttribution, readAttribution } from '../utils/attribution';
import { isVerificationValid, type Verification } from '../utils/flow-storage';

/** A field error code the form's strings translate. */
export type FieldErrorCode = keyof FormMessages['fieldErrors'];

export interface ApplicationFormProps {
  readonly values: FormValues;
  readonly verification: Verification;
  /** Focus the heading on mount (just verified), not after a reload. */
  readonly autoFocus: boolean;
  readonly onChange: (values: FormValues) => void;
  readonly onSubmitted: () => void;
  /** The verification ran out (here or on the server): back to step 1. */
  readonly onVerificationExpired: () => void;
}

/** One id per field: labels, errors and "focus the first invalid field" use it. */
export const fieldId = (name: FieldName) => `application-${name.replaceAll('_', '-')}`;

/**
 * Step 2's state and checks: each field checked with the shared schema on leaving it (or
 * while it shows an error, or after a first Submit), the submission, and the ARIA wiring
 * of each field. The form's markup is components/application-form-step.tsx.
 */
export function useApplicationForm(
  props: ApplicationFormProps,
  /** Whether the form's strings have a message for a field error code (else: INVALID's). */
  isKnownFieldError: (code: string) => code is FieldErrorCode,
) {
  const { values, verification, onChange } = props;
  const { t, i18n } = useTranslation();
  const language: Language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const check = (next: FormValues) =>
    validateApplication(next, { now: new Date(), verifiedMobile: verification.mobile });

  /** Re-checks one field (on leaving it, or while it shows an error). */
  const recheck = (next: FormValues, name: FieldName, force: boolean) => {
    const result = check(next);
    const code = result.ok ? undefined : result.errors[name];
    setErrors((current) => {
      if (!force && current[name] === undefined) return current;
      const { [name]: _old, ...rest } = current;
      return code ? { ...rest, [name]: code } : rest;
    });
  };

  const change = <K extends FieldName>(name: K, value: FormValues[K]) => {
    const next = updateField(values, name, value);
    onChange(next);
    if (submitAttempted) {
      const result = check(next);
      setErrors(result.ok ? {} : result.errors);
    } else {
      recheck(next, name, false);
      if (name === 'revenue_district') recheck(next, 'assembly_constituency', false);
    }
  };

  /** On leaving a field: say what is wrong with what was typed; an empty field waits for Submit. */
  const blur = (name: FieldName) => {
    const value = values[name];
    const empty = value === '' || value === false;
    recheck(values, name, submitAttempted || !empty);
  };

  const focusField = (name: FieldName | undefined) => {
    if (name) document.getElementById(fieldId(name))?.focus();
  };

  const submit = async () => {
    setSubmitAttempted(true);
    const now = new Date();
    if (!isVerificationValid(verification, now)) return props.onVerificationExpired();
    const result = check(values);
    if (!result.ok) {
      setErrors(result.errors);
      const codes = Object.values(result.errors);
      setFailure({ code: codes.every((c) => c === 'UNDER_AGE') ? 'UNDER_AGE' : 'VALIDATION_FAILED' });
      focusField(firstInvalidField(result.errors));
      return;
    }
    setErrors({});
    setFailure(null);
    setSubmitting(true);
    try {
      const sent = { verificationToken: verification.token, language, application: result.application };
      await submitApplication({ ...sent, attribution: readAttribution() });
      clearAttribution();
      props.onSubmitted();
    } catch (error) {
      const next = failureOf(error);
      if (next.code === 'VERIFICATION_REQUIRED') return props.onVerificationExpired();
      const fields = error instanceof ApiError ? fieldErrorsFromServer(error.details.fields) : undefined;
      setFailure(next);
      setSubmitting(false);
      if (fields) {
        setErrors(fields);
        focusField(firstInvalidField(fields));
      }
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!submitting) void submit();
  };

  // "Some details are missing or not valid" speaks of the fields: it goes once none is marked.
  const fieldsFixed = Object.keys(errors).length === 0;
  const shownFailure =
    failure && fieldsFixed && (failure.code === 'VALIDATION_FAILED' || failure.code === 'UNDER_AGE') ? null : failure;

  const error = (name: FieldName) => {
    // The constituency cannot be chosen before the district: the district's message says it.
    if (name === 'assembly_constituency' && !values.revenue_district) return undefined;
    const code = errors[name];
    return code ? t(`fieldErrors.${isKnownFieldError(code) ? code : 'INVALID'}`) : undefined;
  };
  const aria = (name: FieldName, hint = false) => fieldAria(fieldId(name), { hint, error: error(name) });
  const text = (name: 'alternate_phone_number' | 'name' | 'email' | 'date_of_birth' | 'motivation') => ({
    id: fieldId(name),
    name,
    value: values[name],
    onBlur: () => blur(name),
  });

  return {
    t,
    language,
    submitting,
    shownFailure,
    change,
    blur,
    onSubmit,
    error,
    aria,
    text,
  };
}

/** What the form shows and does, for its parts. */
export type ApplicationForm = ReturnType<typeof useApplicationForm>;
