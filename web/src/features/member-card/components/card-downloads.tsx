import { useState } from 'react';
import type { CardView } from '../../../../../rules/member-card';
import { useTranslation } from '../../../i18n/use-translation';
import { type QrMatrix, saveFile } from '../../../lib/qr';
import { cardFace } from '../utils/card-face';
import type { CardPdfKind } from '../utils/card-pdf';

type Kind = 'png' | CardPdfKind;

/** PNG, phone PDF, print PDF: each drawn on click, in the page's language. */
export function CardDownloads({ card, matrix }: { card: CardView; matrix: QrMatrix }) {
  const { t, i18n } = useTranslation('card');
  const [busy, setBusy] = useState<Kind | null>(null);
  const [failed, setFailed] = useState(false);
  const file = `${t('card.fileName')}-${card.memberNumber.replace(/[^A-Za-z0-9-]/g, '')}`;

  const save = async (kind: Kind) => {
    setBusy(kind);
    setFailed(false);
    try {
      // The drawing (and its font files) load with the first file asked for, not with the page.
      const { canvasPng, drawCard } = await import('../utils/card-image');
      const png = await canvasPng(await drawCard(cardFace(card, matrix, t, i18n.language)));
      if (kind === 'png') saveFile(png, `${file}.png`);
      else {
        // pdf-lib is fetched with the first PDF asked for, never with the page.
        const { cardPdf } = await import('../utils/card-pdf');
        saveFile(await cardPdf(png, kind, `${t('card.title')} · ${card.memberNumber}`), `${file}-${kind}.pdf`);
      }
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };

  const labels: Record<Kind, string> = { png: t('card.png'), phone: t('card.phonePdf'), print: t('card.printPdf') };
  return (
    <section className="card-downloads" aria-labelledby="card-downloads-heading">
      <h2 id="card-downloads-heading" className="step-heading">
        {t('card.saveHeading')}
      </h2>
      <div className="card-download-buttons">
        {(['png', 'phone', 'print'] as const).map((kind) => (
          <button
            key={kind}
            type="button"
            className={kind === 'png' ? 'button button-primary' : 'button button-secondary'}
            disabled={busy !== null}
            onClick={() => void save(kind)}
          >
            {busy === kind ? t('card.preparing') : labels[kind]}
          </button>
        ))}
      </div>
      {failed && (
        <p className="alert alert-error" role="alert">
          {t('card.saveFailed')}
        </p>
      )}
    </section>
  );
}
