import './member-card.css';
import { useState } from 'react';
import { addCardTranslations } from '../../../i18n/member-card';
import { useTranslation } from '../../../i18n/use-translation';
import type { CardClaims } from '../../../../../rules/member-card';
import { useVerification, type Verification } from '../hooks/use-verification';
import { districtName, formatCardDay } from '../utils/card-text';

type Verdict = Exclude<Verification['state'], 'checking'>;
const words = {
  valid: 'verify.valid',
  'not-valid': 'verify.notValid',
  offline: 'verify.offline',
  unchecked: 'verify.unchecked',
} as const;
const lines = {
  valid: 'verify.validLine',
  'not-valid': 'verify.notValidLine',
  offline: 'verify.offlineLine',
  unchecked: 'verify.uncheckedLine',
} as const;

/** The verdict in big letters, in the page's language and, smaller, in the other: a steward reads either. */
function VerdictBox({ state }: { state: Verdict }) {
  const { t, i18n } = useTranslation('card');
  const other = i18n.getFixedT(i18n.language === 'ta' ? 'en' : 'ta', 'card');
  return (
    <div className="verify-verdict" data-state={state} role="status" data-testid="verify-verdict">
      <p className="verify-word">{t(words[state])}</p>
      <p className="verify-word-other" lang={i18n.language === 'ta' ? 'en' : 'ta'}>
        {other(words[state])}
      </p>
      <p className="verify-line">{t(lines[state])}</p>
    </div>
  );
}

/** Only what the signed token says, and only when its signature is ours: since when, district, initials. */
function Facts({ claims }: { claims: CardClaims }) {
  const { t, i18n } = useTranslation('card');
  const facts = [
    [t('verify.memberSince'), formatCardDay(claims.m, i18n.language)],
    [t('verify.district'), claims.d ? districtName(claims.d, i18n.language) : t('verify.notGiven')],
    [t('verify.initials'), claims.i || t('verify.notGiven')],
  ];
  return (
    <dl className="verify-facts" data-testid="verify-facts">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** /v#<token>: is this a member of the wing? Checked offline (signature), then online (status). */
export function VerifyPage() {
  const { t, i18n } = useTranslation('card');
  useState(() => addCardTranslations(i18n));
  const { verification, again } = useVerification();
  return (
    <article className="card verify-page">
      <div className="card-body">
        <h1 className="page-title">{t('verify.title')}</h1>
        {verification.state === 'checking' ? (
          <p className="verify-line" role="status">
            {t('verify.checking')}
          </p>
        ) : (
          <>
            <VerdictBox state={verification.state} />
            {'claims' in verification && <Facts claims={verification.claims} />}
            {verification.state !== 'valid' && (
              <button type="button" className="button button-secondary" onClick={again}>
                {t('verify.again')}
              </button>
            )}
          </>
        )}
      </div>
    </article>
  );
}
