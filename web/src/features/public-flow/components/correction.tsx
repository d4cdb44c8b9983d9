import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import * as v from 'valibot';
import { educations, occupations } from '../../../../../rules/application-values';
import {
  type CorrectableField,
  correctionChangesSchema,
  correctionProblems,
  type MyApplication,
} from '../../../../../rules/my-application';
import { errorText } from '../../../i18n/error-text';
import type { Language } from '../../../i18n/language';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { correctMyApplication } from '../api/my-application';
import { constituencyChoices, digitsOnly, districtChoices } from '../utils/application-form';
import type { Verification } from '../utils/flow-storage';
import { Field, fieldAria } from './form-field';

type Values = Record<CorrectableField, string>;
type Choice = { value: string; label: string };
interface InputProps {
  label: ReactNode;
  type: string;
  maxLength: number;
  autoComplete: string;
  numeric?: boolean;
}
type Errors = Partial<Record<CorrectableField, string>>;
type Step = { kind: 'offer'; said?: 'saved' | 'unchanged' } | { kind: 'editing' } | { kind: 'saving' };

const fieldId = (name: CorrectableField) => `correct-${name}`;

function valuesOf(application: MyApplication['application']): Values {
  const text = (value: string | undefined) => value ?? '';
  return {
    name: application.name,
    email: text(application.email),
    alternate_phone_number: text(application.alternate_phone_number),
    revenue_district: text(application.revenue_district),
    assembly_constituency: text(application.assembly_constituency),
    education: text(application.education),
    occupation: text(application.occupation),
  };
}

/** The fields the applicant changed, as the server takes them (an emptied email takes it away). */
function changesOf(original: Values, values: Values): Partial<Values> {
  const changes: Partial<Values> = {};
  for (const [name, value] of Object.entries(values) as [CorrectableField, string][]) {
    if (value.trim() !== original[name].trim()) changes[name] = value;
  }
  return changes;
}

/** The server's own checks, run here first: each field as the form checks it, then the pairs. */
function check(original: MyApplication['application'], changes: Partial<Values>, verifiedMobile: string): Errors {
  const parsed = v.safeParse(correctionChangesSchema, changes);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.issues) {
      const key = issue.path?.[0]?.key as CorrectableField | undefined;
      if (key) errors[key] ??= /^[A-Z_]+$/.test(issue.message) ? issue.message : 'INVALID';
    }
    return errors;
  }
  return correctionProblems(original, parsed.output, verifiedMobile);
}

/** The choices, with the stored value kept even when the form no longer offers it (an imported application's). */
function withStored(choices: Choice[], stored: string): Choice[] {
  return stored && !choices.some((c) => c.value === stored) ? [{ value: stored, label: stored }, ...choices] : choices;
}

/**
 * The applicant's correction (issue 21, DPDP Act 2023 s. 12): the fields they may correct,
 * as the form has them and checked as the form checks them; only what changed is sent.
 */
export function Correction({
  verification,
  application,
  onCorrected,
}: {
  verification: Verification;
  application: MyApplication['application'];
  /** The application changed: "My application" reads it again. */
  onCorrected: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { t: me } = useTranslation('me');
  const language: Language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const original = useMemo(() => valuesOf(application), [application]);
  const [values, setValues] = useState(original);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'offer' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (step.kind === 'editing') headingRef.current?.focus();
  }, [step.kind]);

  const change = (name: CorrectableField, value: string) => {
    // Another district: its constituency is chosen again.
    setValues((old) => ({ ...old, [name]: value, ...(name === 'revenue_district' && { assembly_constituency: '' }) }));
    setErrors((old) => ({ ...old, [name]: undefined }));
  };

  const save = async () => {
    const changes = changesOf(original, values);
    const found = check(application, changes, verification.mobile);
    setErrors(found);
    setFailure(Object.keys(found).length > 0 ? me('correct.invalid') : null);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(changes).length === 0) return setStep({ kind: 'offer', said: 'unchanged' });
    setStep({ kind: 'saving' });
    try {
      const { changed } = await correctMyApplication(verification.token, changes);
      setStep({ kind: 'offer', said: changed.length > 0 ? 'saved' : 'unchanged' });
      if (changed.length > 0) onCorrected();
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'INTERNAL';
      if (error instanceof ApiError && error.details.fields) setErrors(error.details.fields);
      setFailure(code === 'INTERNAL' || code === 'NETWORK_ERROR' ? me('correct.failed') : errorText(t, code));
      setStep({ kind: 'editing' });
    }
  };

  if (step.kind === 'offer') {
    return (
      <section className="my-application-section" aria-labelledby="correct-heading">
        <h3 id="correct-heading">{me('correct.heading')}</h3>
        <p className="my-application-text">{me('correct.text')}</p>
        {step.said && (
          <p className="alert alert-success" role="status">
            {me(`correct.${step.said}`)}
          </p>
        )}
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setValues(original);
            setErrors({});
            setFailure(null);
            setStep({ kind: 'editing' });
          }}
        >
          {me('correct.open')}
        </button>
      </section>
    );
  }

  return (
    <form
      className="my-application-section correction-form"
      noValidate
      aria-labelledby="correct-form-heading"
      aria-busy={step.kind === 'saving'}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 id="correct-form-heading" tabIndex={-1} ref={headingRef}>
        {me('correct.heading')}
      </h3>
      <CorrectionFields values={values} errors={errors} language={language} onChange={change} />
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <div className="my-application-buttons">
        <button type="submit" className="button button-primary" disabled={step.kind === 'saving'}>
          {step.kind === 'saving' ? me('correct.saving') : me('correct.save')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={step.kind === 'saving'}
          onClick={() => setStep({ kind: 'offer' })}
        >
          {me('correct.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The seven fields, as the application form has them. */
function CorrectionFields({
  values,
  errors,
  language,
  onChange,
}: {
  values: Values;
  errors: Errors;
  language: Language;
  onChange: (name: CorrectableField, value: string) => void;
}) {
  const { t } = useTranslation();
  const error = (name: CorrectableField) =>
    errors[name] ? t(`fieldErrors.${errors[name]}`, t('fieldErrors.INVALID')) : undefined;
  const input = (name: CorrectableField, props: InputProps) => (
    <Field id={fieldId(name)} label={props.label} error={error(name)}>
      <input
        id={fieldId(name)}
        className={props.numeric ? 'input input-mobile' : 'input'}
        type={props.type}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        {...(props.numeric && { inputMode: 'numeric' as const })}
        value={values[name]}
        {...fieldAria(fieldId(name), { error: error(name) })}
        onChange={(event) => onChange(name, props.numeric ? digitsOnly(event.target.value, 10) : event.target.value)}
      />
    </Field>
  );
  const select = (name: CorrectableField, label: string, choices: Choice[], placeholder: string) => (
    <Field id={fieldId(name)} label={label} error={error(name)}>
      <select
        id={fieldId(name)}
        className="input select"
        value={values[name]}
        disabled={name === 'assembly_constituency' && !values.revenue_district}
        {...fieldAria(fieldId(name), { error: error(name) })}
        onChange={(event) => onChange(name, event.target.value)}
      >
        <option value="">{placeholder}</option>
        {withStored(choices, values[name]).map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </Field>
  );
  const optional = (
    <>
      {t('form.email')} <span className="field-optional">{t('form.optional')}</span>
    </>
  );
  return (
    <>
      {input('name', { label: t('form.name'), type: 'text', maxLength: 100, autoComplete: 'name' })}
      {input('email', { label: optional, type: 'email', maxLength: 254, autoComplete: 'email' })}
      {input('alternate_phone_number', {
        label: t('form.alternatePhone'),
        type: 'tel',
        maxLength: 10,
        autoComplete: 'off',
        numeric: true,
      })}
      {select('revenue_district', t('form.district'), districtChoices(language), t('form.districtPlaceholder'))}
      {select(
        'assembly_constituency',
        t('form.constituency'),
        constituencyChoices(values.revenue_district, language),
        t('form.constituencyPlaceholder'),
      )}
      {select(
        'education',
        t('form.education'),
        educations.map((value) => ({ value, label: t(`options.education.${value}`) })),
        t('form.educationPlaceholder'),
      )}
      {select(
        'occupation',
        t('form.occupation'),
        occupations.map((value) => ({ value, label: t(`options.occupation.${value}`) })),
        t('form.occupationPlaceholder'),
      )}
    </>
  );
}
