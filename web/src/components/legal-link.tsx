import { lazy, type MouseEvent, type ReactNode, Suspense, useState } from 'react';
import type { LegalDocumentName } from '../legal/legal-document';
import { paths } from '../paths';

// The dialog and its text are chunks of their own: the footer's links cost the first view
// a few bytes, the texts nothing until opened.
const LegalDialog = lazy(async () => ({ default: (await import('./legal-dialog')).LegalDialog }));

/**
 * A link to a legal text (terms, privacy policy, notice). A plain click opens the text in a dialog over
 * the page, so that nothing typed in the form is lost; a new tab (middle click, Ctrl or
 * Cmd + click, "open in new tab") gets the text's own page.
 */
export function LegalLink({ name, children }: { name: LegalDocumentName; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOpen(true);
  };
  return (
    <>
      <a href={paths[name].getHref()} className="legal-link" onClick={onClick}>
        {children}
      </a>
      {open && (
        <Suspense fallback={null}>
          <LegalDialog name={name} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
