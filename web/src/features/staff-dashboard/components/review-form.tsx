import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { ApplicationStatus } from '../../../../../rules/application-values';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { errorText } from '../../../i18n/error-text';
import { useReviewAction } from '../hooks/use-review-action';
import { NoteField, StatusField } from './review-fields';

type Outcome = { ok: true; status: ApplicationStatus; changed: boolean } | { ok: false; code: string } | null;

/** The details row's review controls (admins): a status and a note for this application, and Erase. */
export function ReviewForm({ row, onErase }: { row: ApplicationRow; onErase?: () => void }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const id = useId();
  const review = useReviewAction(row.application_status);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (review.busy) return;
    setOutcome(null);
    const { status } = review;
    const result = await review.apply([row.id], status);
    if (!result) return;
    if ('failed' in result) return setOutcome({ ok: false, code: result.failed });
    // The same status again writes nothing (not even the note): the note stays for another try.
    if (result.notFound.includes(row.id)) return setOutcome({ ok: false, code: 'NOT_FOUND' });
    if (result.notDone.includes(row.id)) return setOutcome({ ok: false, code: 'INTERNAL' });
    const changed = result.changed.includes(row.id);
    if (changed) review.setNote('');
    setOutcome({ ok: true, status, changed });
  };

  return (
    <form className="review" onSubmit={(event) => void onSubmit(event)} aria-labelledby={`${id}-heading`}>
      <h3 className="details-heading" id={`${id}-heading`}>
        {t('review.heading')}
      </h3>
      <div className="review-fields">
        <StatusField id={id} label={t('review.status')} value={review.status} onChange={review.setStatus} />
        <NoteField
          id={id}
          className="review-note"
          label={t('review.note')}
          hint={t('review.noteHint')}
          value={review.note}
          onChange={review.setNote}
        />
      </div>
      <div className="review-actions">
        <button type="submit" className="button button-primary" disabled={review.busy}>
          {review.busy ? t('review.applying') : t('review.apply')}
        </button>
        {/* Erasure is an admin's alone (the server refuses anyone else): a coordinator gets no button. */}
        {onErase && (
          <button type="button" className="button button-danger-outline" onClick={onErase} disabled={review.busy}>
            {t('review.erase')}
          </button>
        )}
      </div>
      <div role="status" className="review-outcome">
        {outcome?.ok && (
          <p className={outcome.changed ? 'alert alert-success' : 'alert'}>
            {t(outcome.changed ? 'review.done' : 'review.unchanged', { status: t(`status.${outcome.status}`) })}
          </p>
        )}
      </div>
      {outcome && !outcome.ok && (
        <p className="alert alert-error" role="alert">
          {t('review.failed')} {errorText(tc, outcome.code)}
        </p>
      )}
    </form>
  );
}
