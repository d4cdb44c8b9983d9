import './member-card.css';
import { useState } from 'react';
import type { CardView } from '../../../../../rules/member-card';
import { errorText } from '../../../i18n/error-text';
import { addCardTranslations } from '../../../i18n/member-card';
import { useTranslation } from '../../../i18n/use-translation';
import { Spinner } from '../../../components/spinner';
import { type QrMatrix, qrSvg } from '../../../lib/qr';
import { paths } from '../../../paths';
import { useCard } from '../hooks/use-card';
import { cardFields } from '../utils/card-face';
import { CardDownloads } from './card-downloads';

/** The card as the screen shows it: the same lines as the files, the QR code as SVG. */
function CardView({ card, matrix }: { card: CardView; matrix: QrMatrix }) {
  const { t, i18n } = useTranslation('card');
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(matrix, t('card.qrLabel')))}`;
  return (
    <div className="member-card" data-testid="member-card">
      <div className="member-card-head">
        <p className="member-card-wing">{t('wing')}</p>
        <p className="member-card-title">{t('card.title')}</p>
      </div>
      <div className="member-card-body">
        <dl className="member-card-fields">
          <div className="member-card-field">
            <dt className="member-card-sr">{t('card.name')}</dt>
            <dd className="member-card-name">{card.name}</dd>
          </div>
          {cardFields(card, t, i18n.language).map((field) => (
            <div key={field.label} className="member-card-field">
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
        <img className="member-card-qr" src={qr} alt={t('card.qrLabel')} width="160" height="160" />
      </div>
    </div>
  );
}

/** /card#<link>: the member's card, its QR code, and its PNG and PDFs. */
export function CardPage() {
  const { t, i18n } = useTranslation('card');
  const { t: tc } = useTranslation();
  useState(() => addCardTranslations(i18n));
  const { card, retry } = useCard();

  if (card.state === 'loading') return <Spinner label={t('card.loading')} />;
  if (card.state === 'not-found' || card.state === 'failed') {
    const notFound = card.state === 'not-found';
    return (
      <article className="card card-narrow">
        <div className="card-body">
          <h1 className="page-title">{notFound ? t('card.notFoundTitle') : t('card.title')}</h1>
          <p className="alert alert-error" role="alert">
            {notFound ? errorText(tc, 'CARD_NOT_FOUND') : `${t('card.loadFailed')} ${errorText(tc, card.code)}`}
          </p>
          <div className="card-actions">
            {!notFound && (
              <button type="button" className="button button-primary" onClick={retry}>
                {t('card.retry')}
              </button>
            )}
            <a className="button button-secondary" href={paths.home.getHref()}>
              {t('card.home')}
            </a>
          </div>
        </div>
      </article>
    );
  }
  return (
    <article className="card member-card-page">
      <div className="card-body">
        <h1 className="page-title">{t('card.title')}</h1>
        <CardView card={card.card} matrix={card.matrix} />
        <p className="field-hint">{t('card.qrHint')}</p>
        <CardDownloads card={card.card} matrix={card.matrix} />
        <p className="field-hint card-private">{t('card.keepPrivate')}</p>
      </div>
    </article>
  );
}
