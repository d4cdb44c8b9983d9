import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { educations, genders, occupations } from '../../../../../rules/application';
import { enForm as en } from '../../../i18n/en-form';
import type { Language } from '../../../i18n/language';
import { DateInput } from '../../../components/date-input';
import { LegalLink } from '../../../components/legal-link';
import { ApiError } from '../../../lib/api-client';
import { splitTagged } from '../../../lib/tagged-text';
import { submitApplication } from '../api/submit-application';
import {
  constituencyChoices,
  districtChoices,
  type FieldErrors,
  type FieldName,
  type FormValues,
  fieldErrorsFromServer,
  firstInvalidField,
  digitsOnly,
  updateField,
  validateApplication,
} from '../utils/application-form';
import { isVerificationValid, type Verification } from '../utils/flow-storage';
import { type Failure, FailureMessage, failureOf } from './failure-message';
import { ChoiceGroup, Field, fieldAria } from './form-field';

interface ApplicationFormStepProps {
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

/** Step 2, "Join the Movement": checked with the shared schema, as the server checks it. */
export function ApplicationFormStep(props: ApplicationFormStepProps) {
  const { values, verification, onChange } = props;
  const { t, i18n } = useTranslation();
  const language: Language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const districts = useMemo(() => districtChoices(language), [language]);
  const constituencies = useMemo(
    () => constituencyChoices(values.revenue_district, language),
    [values.revenue_district, language],
  );

  useEffect(() => {
    if (props.autoFocus) headingRef.current?.focus();
  }, [props.autoFocus]);

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
      await submitApplication({ verificationToken: verification.token, language, application: result.application });
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

  return (
    <form
      className="step application-form"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="application-heading"
      aria-busy={submitting}
    >
      <div className="form-intro">
        <h1 id="application-heading" ref={headingRef} tabIndex={-1} className="page-title">
          {t('form.heading')}
        </h1>
        <p className="page-intro">{t('form.description')}</p>
      </div>

      <div className="field">
        <label htmlFor="application-verified-phone" className="field-label">
          {verification.channel === 'sms' ? t('code.verifiedPhoneSms') : t('form.verifiedPhone')}
        </label>
        <div className="input-group input-group-readonly">
          <span className="input-prefix" aria-hidden="true">
            +91
          </span>
          <input
            id="application-verified-phone"
            className="input input-mobile"
            type="tel"
            value={verification.mobile}
            readOnly
            aria-describedby="application-verified-phone-hint"
          />
        </div>
        <p id="application-verified-phone-hint" className="field-verified" role="status">
          <span aria-hidden="true">✓ </span>
          {verification.channel === 'sms' ? t('code.verifiedSms') : t('step1.verified')}
        </p>
      </div>

      <Field
        id={fieldId('alternate_phone_number')}
        label={t('form.alternatePhone')}
        hint={t('form.alternatePhoneHint')}
        error={error('alternate_phone_number')}
      >
        <input
          {...text('alternate_phone_number')}
          className="input input-mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          {...aria('alternate_phone_number', true)}
          onChange={(event) => change('alternate_phone_number', digitsOnly(event.target.value, 10))}
        />
      </Field>

      <Field id={fieldId('name')} label={t('form.name')} error={error('name')}>
        <input
          {...text('name')}
          className="input"
          type="text"
          autoComplete="name"
          maxLength={100}
          {...aria('name')}
          onChange={(event) => change('name', event.target.value)}
        />
      </Field>

      <Field
        id={fieldId('email')}
        label={
          <>
            {t('form.email')} <span className="field-optional">{t('form.optional')}</span>
          </>
        }
        error={error('email')}
      >
        <input
          {...text('email')}
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={254}
          {...aria('email')}
          onChange={(event) => change('email', event.target.value)}
        />
      </Field>

      <ChoiceGroup
        id={fieldId('gender')}
        name="gender"
        legend={t('form.gender')}
        options={genders.map((value) => ({ value, label: t(`options.gender.${value}`) }))}
        value={values.gender}
        error={error('gender')}
        onChange={(value) => change('gender', value)}
        onBlur={() => blur('gender')}
      />

      <Field
        id={fieldId('date_of_birth')}
        label={t('form.dateOfBirth')}
        hint={t('form.dateOfBirthHint')}
        error={error('date_of_birth')}
      >
        <DateInput
          {...text('date_of_birth')}
          className="input input-date"
          placeholder={t('form.dateOfBirthFormat')}
          autoComplete="bday"
          {...aria('date_of_birth', true)}
          onValueChange={(value) => change('date_of_birth', value)}
        />
      </Field>

      <Field id={fieldId('revenue_district')} label={t('form.district')} error={error('revenue_district')}>
        <select
          id={fieldId('revenue_district')}
          name="revenue_district"
          className="input select"
          value={values.revenue_district}
          {...aria('revenue_district')}
          onChange={(event) => change('revenue_district', event.target.value)}
          onBlur={() => blur('revenue_district')}
        >
          <option value="">{t('form.districtPlaceholder')}</option>
          {districts.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </Field>

      <Field
        id={fieldId('assembly_constituency')}
        label={t('form.constituency')}
        hint={values.revenue_district ? undefined : t('form.constituencyNeedsDistrict')}
        error={error('assembly_constituency')}
      >
        <select
          id={fieldId('assembly_constituency')}
          name="assembly_constituency"
          className="input select"
          value={values.assembly_constituency}
          disabled={!values.revenue_district}
          {...aria('assembly_constituency', !values.revenue_district)}
          onChange={(event) => change('assembly_constituency', event.target.value)}
          onBlur={() => blur('assembly_constituency')}
        >
          <option value="">{t('form.constituencyPlaceholder')}</option>
          {constituencies.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </Field>

      <Field id={fieldId('education')} label={t('form.education')} error={error('education')}>
        <select
          id={fieldId('education')}
          name="education"
          className="input select"
          value={values.education}
          {...aria('education')}
          onChange={(event) => change('education', event.target.value as FormValues['education'])}
          onBlur={() => blur('education')}
        >
          <option value="">{t('form.educationPlaceholder')}</option>
          {educations.map((value) => (
            <option key={value} value={value}>
              {t(`options.education.${value}`)}
            </option>
          ))}
        </select>
      </Field>

      <Field id={fieldId('occupation')} label={t('form.occupation')} error={error('occupation')}>
        <select
          id={fieldId('occupation')}
          name="occupation"
          className="input select"
          value={values.occupation}
          {...aria('occupation')}
          onChange={(event) => change('occupation', event.target.value as FormValues['occupation'])}
          onBlur={() => blur('occupation')}
        >
          <option value="">{t('form.occupationPlaceholder')}</option>
          {occupations.map((value) => (
            <option key={value} value={value}>
              {t(`options.occupation.${value}`)}
            </option>
          ))}
        </select>
      </Field>

      <ChoiceGroup
        id={fieldId('is_already_member')}
        name="is_already_member"
        legend={t('form.alreadyMember')}
        options={[
          { value: 'yes', label: t('form.yes') },
          { value: 'no', label: t('form.no') },
        ]}
        value={values.is_already_member}
        error={error('is_already_member')}
        onChange={(value) => change('is_already_member', value)}
        onBlur={() => blur('is_already_member')}
      />

      <Field
        id={fieldId('motivation')}
        label={t('form.motivation')}
        hint={t('form.motivationHint')}
        error={error('motivation')}
      >
        <textarea
          {...text('motivation')}
          className="input textarea"
          rows={4}
          maxLength={1000}
          {...aria('motivation', true)}
          onChange={(event) => change('motivation', event.target.value)}
        />
      </Field>

      <p className="form-footnote">{t('form.footerNote')}</p>

      <div className="field">
        <label className="checkbox" htmlFor={fieldId('accept_terms')}>
          <input
            id={fieldId('accept_terms')}
            name="accept_terms"
            type="checkbox"
            checked={values.accept_terms}
            {...aria('accept_terms')}
            onChange={(event) => change('accept_terms', event.target.checked)}
            onBlur={() => blur('accept_terms')}
          />
          <span>
            {splitTagged(t('form.terms')).map((part, index) =>
              part.tag === 'terms' || part.tag === 'privacy' ? (
                <LegalLink key={index} name={part.tag}>
                  {part.text}
                </LegalLink>
              ) : (
                part.text
              ),
            )}
          </span>
        </label>
        <p id={`${fieldId('accept_terms')}-error`} className="field-error" aria-live="polite">
          {error('accept_terms')}
        </p>
      </div>

      <button type="submit" className="button button-primary" disabled={submitting}>
        {submitting ? t('form.submitting') : t('form.submit')}
      </button>
      <div className="step-messages">{shownFailure && <FailureMessage failure={shownFailure} />}</div>
    </form>
  );
}

type FieldErrorCode = keyof typeof en.fieldErrors;
function isKnownFieldError(code: string): code is FieldErrorCode {
  return Object.hasOwn(en.fieldErrors, code);
}
