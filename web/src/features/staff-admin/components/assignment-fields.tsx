import { useId } from 'react';
import { type StaffRole, staffRoles } from '../../../../../rules/staff-scope';
import { useTranslation } from '../../../i18n/use-translation';
import { districtOptions } from '../utils/district-options';

export interface Assignment {
  readonly role: StaffRole;
  readonly districts: readonly string[];
}

/** A field's error line, by the server's (or the form's) code for it. */
export function FieldError({
  id,
  field,
  code,
}: {
  id: string;
  field: 'email' | 'role' | 'districts' | 'sub';
  code?: string;
}) {
  const { t } = useTranslation('staff');
  if (!code) return null;
  const key = `staffAdmin.fieldErrors.${field}.${code}`;
  return (
    <p id={id} className="field-error" role="alert">
      {t(key as never, { defaultValue: t('staffAdmin.changeFailed') })}
    </p>
  );
}

/**
 * Role and districts, the invitation's and a change's: the districts as checkboxes in
 * the page's language (a <select multiple> is hard to use on a phone), hidden for an
 * admin, who always sees every district.
 */
export function AssignmentFields({
  value,
  onChange,
  errors,
}: {
  value: Assignment;
  onChange: (next: Assignment) => void;
  errors: Record<string, string>;
}) {
  const { t, i18n } = useTranslation('staff');
  const id = useId();
  const toggle = (district: string, on: boolean) =>
    onChange({
      ...value,
      districts: on ? [...value.districts, district] : value.districts.filter((d) => d !== district),
    });
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-role`}>
          {t('staffAdmin.role')}
        </label>
        <select
          id={`${id}-role`}
          className="input select"
          value={value.role}
          aria-invalid={errors.role ? true : undefined}
          aria-describedby={errors.role ? `${id}-role-error` : undefined}
          onChange={(event) => onChange({ ...value, role: event.target.value as StaffRole })}
        >
          {staffRoles.map((role) => (
            <option key={role} value={role}>
              {t(`session.role.${role}`)}
            </option>
          ))}
        </select>
        <FieldError id={`${id}-role-error`} field="role" code={errors.role} />
      </div>
      {value.role !== 'admin' && (
        <fieldset className="field staff-districts" aria-describedby={`${id}-districts-hint`}>
          <legend className="field-label">
            {t('staffAdmin.chooseDistricts')}{' '}
            <span className="muted">({t('staffAdmin.chosen', { count: value.districts.length })})</span>
          </legend>
          <p id={`${id}-districts-hint`} className="field-hint">
            {t('staffAdmin.districtsHint')}
          </p>
          <div className="staff-district-list">
            {districtOptions(i18n.language).map((d) => (
              <label key={d.id} className="staff-district">
                <input
                  type="checkbox"
                  checked={value.districts.includes(d.id)}
                  onChange={(event) => toggle(d.id, event.target.checked)}
                />{' '}
                {d.name}
              </label>
            ))}
          </div>
          <FieldError id={`${id}-districts-error`} field="districts" code={errors.districts} />
        </fieldset>
      )}
    </>
  );
}
