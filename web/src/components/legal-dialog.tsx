import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation';
import type { LegalDocumentName } from '../legal/legal-document';
import { LegalText } from './legal-text';

/** A modal dialog: focus stays inside, Escape or Close ends it, focus goes back to the link. */
export function LegalDialog({ name, onClose }: { name: LegalDocumentName; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', ''); // Test DOMs without <dialog> support.
  }, []);

  return (
    <dialog
      ref={ref}
      className="legal-dialog"
      aria-labelledby={headingId}
      onClose={onClose}
      // A click on the backdrop (the dialog itself, outside its content) closes it too.
      onClick={(event) => {
        if (event.target === ref.current) ref.current.close();
      }}
    >
      <div className="legal-dialog-content">
        <div className="legal-dialog-bar">
          <button
            type="button"
            className="button button-secondary legal-dialog-close"
            onClick={() => ref.current?.close()}
          >
            {t('legal.close')}
          </button>
        </div>
        <LegalText name={name} level={2} headingId={headingId} />
      </div>
    </dialog>
  );
}
