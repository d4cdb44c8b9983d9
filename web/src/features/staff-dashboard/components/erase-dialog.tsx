import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { errorText } from '../../../i18n/error-text';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { eraseApplication } from '../api/erase-application';
import { formatPhone } from '../utils/format';

/**
 * Confirmation before an erasure (DPDP Act): a modal <dialog> (focus kept inside,
 * Escape cancels) that names the person and says it cannot be undone. Cancel has
 * the first focus, so that Enter does not erase.
 */
export function EraseDialog({
  target,
  onClose,
  onErased,
}: {
  target: ApplicationRow;
  onClose: () => void;
  onErased: (row: ApplicationRow) => void;
}) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const { getIdToken } = useStaffSession();
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal?.();
    cancelRef.current?.focus();
    return () => dialog.close?.();
  }, []);

  const erase = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await eraseApplication(getIdToken, target.id);
      onErased(target);
    } catch (error) {
      setBusy(false);
      setFailure(error instanceof ApiError ? error.code : 'INTERNAL');
    }
  };

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      data-testid="erase-dialog"
    >
      <h2 id={`${id}-title`} className="dialog-title">
        {t('erase.title')}
      </h2>
      <div id={`${id}-body`}>
        <p className="dialog-text">{t('erase.body', { name: target.name, phone: formatPhone(target.phone_number) })}</p>
        <p className="dialog-text muted">{t('erase.keeps')}</p>
      </div>
      {failure && (
        <p className="alert alert-error" role="alert">
          {t('erase.failed')} {errorText(tc, failure)}
        </p>
      )}
      <div className="dialog-actions">
        <button ref={cancelRef} type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
          {t('erase.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={() => void erase()} disabled={busy}>
          {busy ? t('erase.erasing') : t('erase.confirm')}
        </button>
      </div>
    </dialog>
  );
}
