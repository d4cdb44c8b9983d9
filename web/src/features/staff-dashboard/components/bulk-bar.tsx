import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApplicationStatus, applicationStatuses } from '../../../../../rules/application';
import type { StatusChangeResponse } from '../../../../../rules/staff-api';
import { errorText } from '../../../i18n/error-text';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { changeStatus } from '../api/change-status';

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
  const { getIdToken } = useStaffSession();
  const id = useId();
  const [status, setStatus] = useState<ApplicationStatus | ''>('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!status) {
      setProblem('chooseFirst');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const trimmed = note.trim();
      const result = await changeStatus(getIdToken, { ids: [...ids], status, ...(trimmed && { note: trimmed }) });
      setNote('');
      setStatus('');
      onDone(result);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'INTERNAL');
    } finally {
      setBusy(false);
    }
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
      <div className="field">
        <label className="field-label" htmlFor={`${id}-status`}>
          {t('bulk.status')}
        </label>
        <select
          id={`${id}-status`}
          className="input select"
          value={status}
          aria-invalid={problem === 'chooseFirst'}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setStatus(event.target.value as ApplicationStatus | '')}
        >
          <option value="">{t('bulk.choose')}</option>
          {applicationStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field bulk-note">
        <label className="field-label" htmlFor={`${id}-note`}>
          {t('bulk.note')}
        </label>
        <input
          id={`${id}-note`}
          className="input"
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
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
