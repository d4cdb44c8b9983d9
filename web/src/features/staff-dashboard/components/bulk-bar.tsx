import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { ApplicationStatus } from '../../../../../rules/application-values';
import type { StatusChangeResponse } from '../../../../../rules/staff-api';
import { errorText } from '../../../i18n/error-text';
import { useReviewAction } from '../hooks/use-review-action';
import { NoteField, StatusField } from './review-fields';

/** Shown while rows are checked (admins): one status and an optional note for the whole selection. */
export function BulkBar({
  ids,
  onClear,
  onDone,
}: {
  ids: readonly string[];
  onClear: () => void;
  onDone: (result: StatusChangeResponse) => void;
}) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const id = useId();
  const review = useReviewAction<ApplicationStatus | ''>('');
  const [problem, setProblem] = useState<string | null>(null);
  const { status, note, busy } = review;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!status) {
      setProblem('chooseFirst');
      return;
    }
    setProblem(null);
    const result = await review.apply(ids, status);
    if (!result) return;
    if ('failed' in result) return setProblem(result.failed);
    review.setNote('');
    review.setStatus('');
    onDone(result);
  };

  return (
    <form
      className="bulk-bar"
      aria-label={t('bulk.label')}
      onSubmit={(event) => void onSubmit(event)}
      data-testid="bulk-bar"
      noValidate
    >
      <p className="bulk-count" aria-live="polite">
        {t('bulk.selected', { count: ids.length })}
      </p>
      <StatusField
        id={id}
        label={t('bulk.status')}
        value={status}
        onChange={review.setStatus}
        choose={t('bulk.choose')}
        invalid={problem === 'chooseFirst'}
        {...(problem && { describedBy: `${id}-problem` })}
      />
      <NoteField id={id} className="bulk-note" label={t('bulk.note')} value={note} onChange={review.setNote} />
      <div className="bulk-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('bulk.applying') : t('bulk.apply')}
        </button>
        <button type="button" className="button button-secondary" onClick={onClear} disabled={busy}>
          {t('bulk.clear')}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="field-error bulk-problem" role="alert">
          {problem === 'chooseFirst' ? t('bulk.chooseFirst') : errorText(tc, problem)}
        </p>
      )}
    </form>
  );
}
