import { type ReactNode, type Ref, useEffect, useRef } from 'react';
import { GRIEVANCE_TEXT_MAX, type GrievanceOpened } from '../../../../../rules/grievances';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { type Failure, failureOf } from './failure-message';
import { fieldAria } from './form-field';
import './grievance.css';

// What both grievance forms share (issue 21): the text with its counter and check, what a
// failed send comes to, and the receipt with the reference and the due date.

/** The text's own problem before it is sent (the server checks it again): a code of `fieldErrors`. */
export function grievanceTextProblem(text: string): 'REQUIRED' | 'TOO_LONG' | undefined {
  if (text.trim() === '') return 'REQUIRED';
  return text.trim().length > GRIEVANCE_TEXT_MAX ? 'TOO_LONG' : undefined;
}

/** A failed send: the field the server named (its code), or a failure for FailureMessage. */
export function grievanceFailureOf(error: unknown): { fields: Record<string, string>; failure: Failure | null } {
  if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && error.details.fields) {
    return { fields: error.details.fields, failure: null };
  }
  return { fields: {}, failure: failureOf(error) };
}

const dueFormats = new Map<string, Intl.DateTimeFormat>();
/** An instant as its IST day, the month in words: "20 February 2027", "20 பிப்ரவரி, 2027". */
export function formatGrievanceDay(iso: string, language: string): string {
  const locale = language === 'ta' ? 'ta-IN' : 'en-IN';
  let format = dueFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Asia/Kolkata',
    });
    dueFormats.set(locale, format);
  }
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : format.format(at);
}

export function GrievanceTextField({
  id,
  value,
  error,
  onChange,
  inputRef,
}: {
  id: string;
  value: string;
  /** A code of `fieldErrors`, when the text is not fit to send. */
  error: string | undefined;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLTextAreaElement>;
}) {
  const { t: g } = useTranslation('grievance');
  const message = error
    ? g([`fieldErrors.${error}` as 'fieldErrors.REQUIRED', 'fieldErrors.INVALID_CHARACTERS'], {
        max: GRIEVANCE_TEXT_MAX,
      })
    : undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {g('textLabel')}
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {g('textHint', { max: GRIEVANCE_TEXT_MAX })}
      </p>
      <textarea
        ref={inputRef}
        id={id}
        name="grievance"
        className="input textarea"
        rows={5}
        maxLength={GRIEVANCE_TEXT_MAX}
        value={value}
        {...fieldAria(id, { hint: true, error: message })}
        onChange={(event) => onChange(event.target.value)}
      />
      <p className="field-hint grievance-counter" aria-hidden="true">
        {g('counter', { count: value.length, max: GRIEVANCE_TEXT_MAX })}
      </p>
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {message}
      </p>
    </div>
  );
}

/** After the send: the reference to quote and the day the answer is due, in the page's language. */
export function GrievanceReceipt({ opened, children }: { opened: GrievanceOpened; children?: ReactNode }) {
  const { i18n } = useTranslation();
  const { t: g } = useTranslation('grievance');
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="grievance-receipt" data-testid="grievance-receipt">
      <p className="alert alert-success" role="status" tabIndex={-1} ref={ref}>
        {g('received')}
      </p>
      <dl className="grievance-facts">
        <div>
          <dt>{g('reference')}</dt>
          <dd data-testid="grievance-reference">{opened.reference}</dd>
        </div>
        <div>
          <dt>{g('dueBy')}</dt>
          <dd data-testid="grievance-due">{formatGrievanceDay(opened.dueAt, i18n.language)}</dd>
        </div>
      </dl>
      <p>{g('keep')}</p>
      {children}
    </div>
  );
}
