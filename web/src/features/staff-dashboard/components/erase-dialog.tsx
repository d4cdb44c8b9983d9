import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { errorText } from '../../../i18n/error-text';
import { useEraseApplication } from '../hooks/use-erase-application';
import { formatPhone } from '../../../lib/staff-format';

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
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const erasure = useEraseApplication();
  // Busy from the click until the dialog closes: an erased row's dialog never offers Erase again.
  const busy = erasure.isPending || erasure.isSuccess;
  const failure = erasure.failure;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal?.();
    cancelRef.current?.focus();
    return () => dialog.close?.();
  }, []);

  const erase = () => erasure.mutate(target.id, { onSuccess: () => onErased(target) });

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
        <button type="button" className="button button-danger" onClick={erase} disabled={busy}>
          {busy ? t('erase.erasing') : t('erase.confirm')}
        </button>
      </div>
    </dialog>
  );
}
