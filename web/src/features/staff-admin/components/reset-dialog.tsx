import { useEffect, useId, useRef } from 'react';
import type { StaffMember } from '../../../../../rules/staff-admin';
import { useTranslation } from '../../../i18n/use-translation';

/**
 * Confirmation before an authenticator reset (the account is made again): a modal
 * <dialog>, Escape cancels, Cancel has the first focus so that Enter does not reset.
 */
export function ResetDialog({
  member,
  busy,
  failed,
  onConfirm,
  onClose,
}: {
  member: StaffMember;
  busy: boolean;
  failed: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal?.();
    cancelRef.current?.focus();
    return () => dialog.close?.();
  }, []);

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
      data-testid="reset-dialog"
    >
      <h2 id={`${id}-title`} className="dialog-title staff-wrap">
        {t('staffAdmin.resetTitle', { email: member.email })}
      </h2>
      <p id={`${id}-body`} className="dialog-text">
        {t('staffAdmin.resetBody')}
      </p>
      {failed && (
        <p className="alert alert-error" role="alert">
          {failed}
        </p>
      )}
      <div className="dialog-actions">
        <button ref={cancelRef} type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
          {t('staffAdmin.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {busy ? t('staffAdmin.saving') : t('staffAdmin.resetConfirm')}
        </button>
      </div>
    </dialog>
  );
}
