import { useState } from 'react';
import type { MyApplication } from '../../../../../rules/my-application';
import { useTranslation } from '../../../i18n/use-translation';
import { saveFile } from '../../../lib/qr';
import { formatInstant, type Section } from '../utils/my-application-rows';

type Kind = 'json' | 'pdf';

/** The applicant's copy: the data as the server answered it (JSON), or the screen's lines as a PDF in their language. */
export function MyApplicationCopy({ data, sections }: { data: MyApplication; sections: readonly Section[] }) {
  const { t: me, i18n } = useTranslation('me');
  const [busy, setBusy] = useState<Kind | null>(null);
  const [failed, setFailed] = useState(false);
  const day = new Date().toISOString().slice(0, 10);

  const save = async (kind: Kind) => {
    setBusy(kind);
    setFailed(false);
    try {
      if (kind === 'json') {
        const json = `${JSON.stringify(data, null, 2)}\n`;
        saveFile(new Blob([json], { type: 'application/json' }), `my-application-${day}.json`);
      } else {
        // The drawing, its fonts and pdf-lib load with the first PDF asked for.
        const { myApplicationPdf } = await import('../utils/my-application-pdf');
        const madeOn = me('copy.madeOn', { at: formatInstant(new Date().toISOString(), i18n.language) });
        saveFile(await myApplicationPdf(me('copy.pdfTitle'), madeOn, sections), `my-application-${day}.pdf`);
      }
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };

  const labels: Record<Kind, string> = { json: me('copy.json'), pdf: me('copy.pdf') };
  return (
    <section className="my-application-section">
      <h3>{me('copy.heading')}</h3>
      <div className="my-application-buttons">
        {(['pdf', 'json'] as const).map((kind) => (
          <button
            key={kind}
            type="button"
            className="button button-secondary"
            disabled={busy !== null}
            onClick={() => void save(kind)}
          >
            {busy === kind ? me('copy.preparing') : labels[kind]}
          </button>
        ))}
      </div>
      {failed && (
        <p className="alert alert-error" role="alert">
          {me('copy.failed')}
        </p>
      )}
    </section>
  );
}
