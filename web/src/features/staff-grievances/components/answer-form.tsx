import { type FormEvent, useId, useState } from 'react';
import { GRIEVANCE_ANSWER_MAX, type StaffGrievance } from '../../../../../rules/grievances';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { useAnswerGrievance } from '../hooks/use-grievances';

/** The answer to an open ticket: checked here as the server checks it, then sent. */
export function AnswerForm({
  grievance,
  onAnswered,
}: {
  grievance: StaffGrievance;
  onAnswered: (reference: string) => void;
}) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const id = useId();
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const mutation = useAnswerGrievance();
  const fieldCode = problem ?? mutation.failure?.fields.answer;
  const message = fieldCode
    ? t(
        [
          `grievances.fieldErrors.${fieldCode}` as 'grievances.fieldErrors.REQUIRED',
          'grievances.fieldErrors.INVALID_CHARACTERS',
        ],
        {
          max: GRIEVANCE_ANSWER_MAX,
        },
      )
    : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = answer.trim();
    const found = trimmed === '' ? 'REQUIRED' : trimmed.length > GRIEVANCE_ANSWER_MAX ? 'TOO_LONG' : undefined;
    setProblem(found);
    if (found) return;
    mutation.mutate({ id: grievance.id, answer }, { onSuccess: () => onAnswered(grievance.reference) });
  };

  return (
    <form className="grievance-answer-form" noValidate onSubmit={submit}>
      <label htmlFor={`${id}-answer`} className="field-label">
        {t('grievances.answerLabel')}
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {t('grievances.answerHint', { max: GRIEVANCE_ANSWER_MAX })}
      </p>
      <textarea
        id={`${id}-answer`}
        className="input textarea"
        rows={4}
        maxLength={GRIEVANCE_ANSWER_MAX}
        lang={grievance.language}
        value={answer}
        aria-invalid={message ? true : false}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(event) => {
          setAnswer(event.target.value);
          setProblem(undefined);
        }}
      />
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {message}
      </p>
      {mutation.failure && !mutation.failure.fields.answer && (
        <p className="alert alert-error" role="alert">
          {mutation.failure.code === 'INTERNAL' ? t('grievances.failed') : errorText(tc, mutation.failure.code)}
        </p>
      )}
      <div className="staff-actions">
        <button type="submit" className="button button-primary button-small" disabled={mutation.isPending}>
          {mutation.isPending ? t('grievances.sending') : t('grievances.send')}
        </button>
      </div>
    </form>
  );
}
