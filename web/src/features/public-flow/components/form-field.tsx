import type { ReactNode } from 'react';

/** ids and ARIA wiring of one field: its hint, its error, and whether it is invalid. */
export function fieldAria(id: string, options: { hint?: boolean; error?: string }) {
  const describedBy = [options.hint && `${id}-hint`, options.error && `${id}-error`].filter(Boolean).join(' ');
  return {
    'aria-invalid': options.error ? true : false,
    'aria-describedby': describedBy || undefined,
  } as const;
}

interface FieldProps {
  readonly id: string;
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  /** The translated message, when the field is invalid. */
  readonly error?: string;
  readonly children: ReactNode;
}

/**
 * Label, hint, control, error, in that order. The error line is always in the page
 * (empty when fine) so that a message appearing in it is announced.
 */
export function Field({ id, label, hint, error, children }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {children}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

interface ChoiceGroupProps<V extends string> {
  readonly id: string;
  readonly name: string;
  readonly legend: ReactNode;
  readonly options: readonly { readonly value: V; readonly label: string }[];
  readonly value: V | '';
  readonly error?: string;
  readonly onChange: (value: V) => void;
  readonly onBlur?: () => void;
}

/** Radio buttons in a fieldset: Tab enters the group, arrow keys choose. */
export function ChoiceGroup<V extends string>({
  id,
  name,
  legend,
  options,
  value,
  error,
  onChange,
  onBlur,
}: ChoiceGroupProps<V>) {
  return (
    <fieldset className="field choice-fieldset">
      <legend className="field-label">{legend}</legend>
      <div className="choice-group">
        {options.map((option, index) => (
          <label key={option.value} className="choice">
            <input
              id={index === 0 ? id : `${id}-${option.value}`}
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              onBlur={onBlur}
              {...fieldAria(id, { error })}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </fieldset>
  );
}
