import { useEffect, useMemo, useRef } from 'react';
import { educations, genders, occupations } from '../../../../../rules/application-values';
import { DateInput } from '../../../components/date-input';
import { LegalLink } from '../../../components/legal-link';
import { enForm as en } from '../../../i18n/en-form';
import { splitTagged } from '../../../lib/tagged-text';
import {
  type ApplicationForm,
  type FieldErrorCode,
  type ApplicationFormProps,
  fieldId,
  useApplicationForm,
} from '../hooks/use-application-form';
import { constituencyChoices, digitsOnly, districtChoices, type FormValues } from '../utils/application-form';
import type { Verification } from '../utils/flow-storage';
import { FailureMessage } from './failure-message';
import { ChoiceGroup, Field } from './form-field';

export { fieldId };

/** Step 2, "Join the Movement": checked with the shared schema, as the server checks it. */
export function ApplicationFormStep(props: ApplicationFormProps) {
  const { values, verification } = props;
  const form = useApplicationForm(props, isKnownFieldError);
  const { t } = form;
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (props.autoFocus) headingRef.current?.focus();
  }, [props.autoFocus]);

  return (
    <form
      className="step application-form"
      noValidate
      onSubmit={form.onSubmit}
      aria-labelledby="application-heading"
      aria-busy={form.submitting}
    >
      <div className="form-intro">
        <h1 id="application-heading" ref={headingRef} tabIndex={-1} className="page-title">
          {t('form.heading')}
        </h1>
        <p className="page-intro">{t('form.description')}</p>
      </div>

      <VerifiedPhone verification={verification} t={t} />
      <PersonFields form={form} values={values} />
      <PlaceAndWorkFields form={form} values={values} />

      <ChoiceGroup
        id={fieldId('is_already_member')}
        name="is_already_member"
        legend={form.t('form.alreadyMember')}
        options={[
          { value: 'yes', label: form.t('form.yes') },
          { value: 'no', label: form.t('form.no') },
        ]}
        value={values.is_already_member}
        error={form.error('is_already_member')}
        onChange={(value) => form.change('is_already_member', value)}
        onBlur={() => form.blur('is_already_member')}
      />

      <Field
        id={fieldId('motivation')}
        label={form.t('form.motivation')}
        hint={form.t('form.motivationHint')}
        error={form.error('motivation')}
      >
        <textarea
          {...form.text('motivation')}
          className="input textarea"
          rows={4}
          maxLength={1000}
          {...form.aria('motivation', true)}
          onChange={(event) => form.change('motivation', event.target.value)}
        />
      </Field>

      <p className="form-footnote">{t('form.footerNote')}</p>

      <TermsField form={form} values={values} />

      <button type="submit" className="button button-primary" disabled={form.submitting}>
        {form.submitting ? t('form.submitting') : t('form.submit')}
      </button>
      <div className="step-messages">{form.shownFailure && <FailureMessage failure={form.shownFailure} />}</div>
    </form>
  );
}

/** The number the code went to, as verified: not editable here. */
function VerifiedPhone({ verification, t }: { verification: Verification; t: ApplicationForm['t'] }) {
  return (
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
  );
}

/** Alternate number, name, email, gender and date of birth. */
function PersonFields({ form, values }: { form: ApplicationForm; values: FormValues }) {
  return (
    <>
      <Field
        id={fieldId('alternate_phone_number')}
        label={form.t('form.alternatePhone')}
        hint={form.t('form.alternatePhoneHint')}
        error={form.error('alternate_phone_number')}
      >
        <input
          {...form.text('alternate_phone_number')}
          className="input input-mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          {...form.aria('alternate_phone_number', true)}
          onChange={(event) => form.change('alternate_phone_number', digitsOnly(event.target.value, 10))}
        />
      </Field>

      <Field id={fieldId('name')} label={form.t('form.name')} error={form.error('name')}>
        <input
          {...form.text('name')}
          className="input"
          type="text"
          autoComplete="name"
          maxLength={100}
          {...form.aria('name')}
          onChange={(event) => form.change('name', event.target.value)}
        />
      </Field>

      <Field
        id={fieldId('email')}
        label={
          <>
            {form.t('form.email')} <span className="field-optional">{form.t('form.optional')}</span>
          </>
        }
        error={form.error('email')}
      >
        <input
          {...form.text('email')}
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={254}
          {...form.aria('email')}
          onChange={(event) => form.change('email', event.target.value)}
        />
      </Field>

      <ChoiceGroup
        id={fieldId('gender')}
        name="gender"
        legend={form.t('form.gender')}
        options={genders.map((value) => ({ value, label: form.t(`options.gender.${value}`) }))}
        value={values.gender}
        error={form.error('gender')}
        onChange={(value) => form.change('gender', value)}
        onBlur={() => form.blur('gender')}
      />

      <Field
        id={fieldId('date_of_birth')}
        label={form.t('form.dateOfBirth')}
        hint={form.t('form.dateOfBirthHint')}
        error={form.error('date_of_birth')}
      >
        <DateInput
          {...form.text('date_of_birth')}
          className="input input-date"
          placeholder={form.t('form.dateOfBirthFormat')}
          autoComplete="bday"
          {...form.aria('date_of_birth', true)}
          onValueChange={(value) => form.change('date_of_birth', value)}
        />
      </Field>
    </>
  );
}

type SelectName = 'revenue_district' | 'assembly_constituency' | 'education' | 'occupation';

/** One of the form's selects: its placeholder first, then the choices. */
function SelectField({
  form,
  name,
  value,
  label,
  hint,
  placeholder,
  options,
  disabled,
}: {
  form: ApplicationForm;
  name: SelectName;
  value: string;
  label: string;
  hint?: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
}) {
  return (
    <Field id={fieldId(name)} label={label} hint={hint} error={form.error(name)}>
      <select
        id={fieldId(name)}
        name={name}
        className="input select"
        value={value}
        disabled={disabled}
        {...form.aria(name, hint !== undefined)}
        onChange={(event) => form.change(name, event.target.value)}
        onBlur={() => form.blur(name)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** District, then its constituency (chosen only once the district is), education, occupation. */
function PlaceAndWorkFields({ form, values }: { form: ApplicationForm; values: FormValues }) {
  const { t, language } = form;
  const districts = useMemo(() => districtChoices(language), [language]);
  const constituencies = useMemo(
    () => constituencyChoices(values.revenue_district, language),
    [values.revenue_district, language],
  );
  return (
    <>
      <SelectField
        form={form}
        name="revenue_district"
        value={values.revenue_district}
        label={t('form.district')}
        placeholder={t('form.districtPlaceholder')}
        options={districts}
      />
      <SelectField
        form={form}
        name="assembly_constituency"
        value={values.assembly_constituency}
        label={t('form.constituency')}
        {...(!values.revenue_district && { hint: t('form.constituencyNeedsDistrict') })}
        placeholder={t('form.constituencyPlaceholder')}
        options={constituencies}
        disabled={!values.revenue_district}
      />
      <SelectField
        form={form}
        name="education"
        value={values.education}
        label={t('form.education')}
        placeholder={t('form.educationPlaceholder')}
        options={educations.map((value) => ({ value, label: t(`options.education.${value}`) }))}
      />
      <SelectField
        form={form}
        name="occupation"
        value={values.occupation}
        label={t('form.occupation')}
        placeholder={t('form.occupationPlaceholder')}
        options={occupations.map((value) => ({ value, label: t(`options.occupation.${value}`) }))}
      />
    </>
  );
}

/** The consent, with links to the terms, the privacy policy and the data notice. */
function TermsField({ form, values }: { form: ApplicationForm; values: FormValues }) {
  return (
    <div className="field">
      <label className="checkbox" htmlFor={fieldId('accept_terms')}>
        <input
          id={fieldId('accept_terms')}
          name="accept_terms"
          type="checkbox"
          checked={values.accept_terms}
          {...form.aria('accept_terms')}
          onChange={(event) => form.change('accept_terms', event.target.checked)}
          onBlur={() => form.blur('accept_terms')}
        />
        <span>
          {splitTagged(form.t('form.terms')).map((part, index) =>
            part.tag === 'terms' || part.tag === 'privacy' || part.tag === 'notice' ? (
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
        {form.error('accept_terms')}
      </p>
    </div>
  );
}

function isKnownFieldError(code: string): code is FieldErrorCode {
  return Object.hasOwn(en.fieldErrors, code);
}
