import { useState } from 'react';
import type { Campaign } from '../../../../../rules/campaigns';
import { useTranslation } from '../../../i18n/use-translation';
import { useQr } from '../hooks/use-qr';
import { qrPng, saveFile } from '../../../lib/qr';

type Busy = 'idle' | 'poster' | 'posterFailed' | 'pngFailed';

/**
 * A campaign's link with a copy button, its QR code on screen, and the code as SVG, PNG
 * and an A4 poster (PDF). The poster's code (fonts, canvas, PDF writer) loads only when
 * one is asked for.
 */
export function CampaignShare({ campaign, link }: { campaign: Campaign; link: string }) {
  const { t, i18n } = useTranslation('staff');
  const name = i18n.language === 'ta' ? campaign.name_ta : campaign.name_en;
  const qr = useQr(link, name);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const [busy, setBusy] = useState<Busy>('idle');
  const file = `campaign-${campaign.code}`;

  const copy = () => {
    // A page served over plain http (not localhost) has no clipboard: that fails here too.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(link))
      .then(
        () => {
          setCopied('yes');
          setTimeout(() => setCopied('no'), 2000);
        },
        () => setCopied('failed'),
      );
  };

  const poster = async () => {
    if (qr.state !== 'ready') return;
    setBusy('poster');
    try {
      const { posterPdf } = await import('../utils/poster');
      // The Campaigns page holds its strings in both languages (the shell's only in the one shown).
      const fixed = (language: 'en' | 'ta') => i18n.getFixedT(language, 'staff');
      const blob = await posterPdf({
        matrix: qr.matrix,
        link,
        title: `${campaign.name_en} · ${campaign.name_ta}`,
        ta: {
          wing: fixed('ta')('campaigns.posterWing'),
          name: campaign.name_ta,
          invite: fixed('ta')('campaigns.posterInvite'),
          or: fixed('ta')('campaigns.posterOr'),
        },
        en: {
          wing: fixed('en')('campaigns.posterWing'),
          name: campaign.name_en,
          invite: fixed('en')('campaigns.posterInvite'),
          or: fixed('en')('campaigns.posterOr'),
        },
      });
      saveFile(blob, `${file}-poster.pdf`);
      setBusy('idle');
    } catch {
      setBusy('posterFailed');
    }
  };

  return (
    <div className="campaign-share">
      <div className="campaign-link">
        <span className="field-label">{t('campaigns.link')}</span>
        <code className="campaign-link-text" data-testid="campaign-link">
          {link}
        </code>
        <button type="button" className="button button-secondary button-small" onClick={copy}>
          {copied === 'yes' ? t('campaigns.copied') : t('campaigns.copy')}
        </button>
        {copied === 'failed' && (
          <p className="field-error" role="alert">
            {t('campaigns.copyFailed')}
          </p>
        )}
      </div>
      {qr.state === 'failed' && <p className="field-error">{t('campaigns.qrFailed')}</p>}
      {qr.state === 'ready' && (
        <div className="campaign-qr">
          <img
            className="campaign-qr-image"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.svg)}`}
            alt={t('campaigns.qrAlt', { name })}
            width="160"
            height="160"
          />
          <div className="staff-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => saveFile(new Blob([qr.svg], { type: 'image/svg+xml' }), `${file}.svg`)}
            >
              {t('campaigns.downloadSvg')}
            </button>
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() =>
                void qrPng(qr.matrix).then(
                  (blob) => saveFile(blob, `${file}.png`),
                  () => setBusy('pngFailed'),
                )
              }
            >
              {t('campaigns.downloadPng')}
            </button>
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => void poster()}
              disabled={busy === 'poster'}
            >
              {busy === 'poster' ? t('campaigns.makingPoster') : t('campaigns.poster')}
            </button>
          </div>
          {(busy === 'posterFailed' || busy === 'pngFailed') && (
            <p className="field-error" role="alert">
              {busy === 'pngFailed' ? t('campaigns.qrFailed') : t('campaigns.posterFailed')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
