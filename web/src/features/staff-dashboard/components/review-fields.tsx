import { useTranslation } from '../../../i18n/use-translation';
import { type ApplicationStatus, applicationStatuses } from '../../../../../rules/application-values';

// The review's two fields, for the details row's form and the bulk bar alike: the status
// to set and the note that goes with it. `id` is the form's useId.

export function StatusField<S extends ApplicationStatus | ''>({
  id,
  label,
  value,
  onChange,
  choose,
  invalid,
  describedBy,
}: {
  id: string;
  label: string;
  value: S | ApplicationStatus;
  onChange: (status: S | ApplicationStatus) => void;
  /** The empty first option's text, when no status is chosen at first (the bulk bar). */
  choose?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation('staff');
  return (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-status`}>
        {label}
      </label>
      <select
        id={`${id}-status`}
        className="input select"
        value={value}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value as S | ApplicationStatus)}
      >
        {choose !== undefined && <option value="">{choose}</option>}
        {applicationStatuses.map((s) => (
          <option key={s} value={s}>
            {t(`status.${s}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function NoteField({
  id,
  className,
  label,
  hint,
  value,
  onChange,
}: {
  id: string;
  className: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (note: string) => void;
}) {
  return (
    <div className={`field ${className}`}>
      <label className="field-label" htmlFor={`${id}-note`}>
        {label}
      </label>
      <input
        id={`${id}-note`}
        className="input"
        maxLength={500}
        value={value}
        aria-describedby={hint ? `${id}-note-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <p id={`${id}-note-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
