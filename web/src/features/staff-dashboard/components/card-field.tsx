import { useState } from 'react';
import type { CardAction, StaffCard } from '../../../../../rules/member-card';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { formatDateTime } from '../../../lib/staff-format';
import { useCardAction } from '../hooks/use-card-action';

/** Asks before the change: a revoke or a reissue stops the member's link and QR code at once. */
function CardActions({ id, card }: { id: string; card: StaffCard }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const [asking, setAsking] = useState<CardAction | null>(null);
  const action = useCardAction(id);
  const confirm = (which: CardAction) =>
    action.mutate(which, { onSuccess: () => setAsking(null), onSettled: () => undefined });

  if (asking) {
    return (
      <div
        className="card-confirm"
        role="group"
        aria-label={asking === 'revoke' ? t('card.revoke') : t('card.reissue')}
      >
        <p>{asking === 'revoke' ? t('card.confirmRevoke') : t('card.confirmReissue')}</p>
        <div className="card-confirm-buttons">
          <button
            type="button"
            className={asking === 'revoke' ? 'button button-danger' : 'button button-primary'}
            disabled={action.isPending}
            onClick={() => confirm(asking)}
          >
            {action.isPending ? t('card.working') : t('card.confirm')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setAsking(null)}>
            {t('card.cancel')}
          </button>
        </div>
        {action.failure && (
          <p className="alert alert-error" role="alert">
            {t('card.failed')} {errorText(tc, action.failure)}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="card-confirm-buttons">
      {card.state === 'active' && (
        <button type="button" className="button button-secondary" onClick={() => setAsking('revoke')}>
          {t('card.revoke')}
        </button>
      )}
      <button type="button" className="button button-secondary" onClick={() => setAsking('reissue')}>
        {t('card.reissue')}
      </button>
    </div>
  );
}

/** The member's card (issue 20): its state, whether it verifies now, when issued, how often reissued; admins may change it. */
export function CardField({ id, card, canChange }: { id: string; card: StaffCard; canChange: boolean }) {
  const { t, i18n } = useTranslation('staff');
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <div className="details-field details-field-wide" data-testid="member-card-state">
      <dt>{t('card.label')}</dt>
      <dd>
        <p>
          <strong>{card.state === 'active' ? t('card.active') : t('card.revoked')}</strong>
          {' · '}
          {card.valid ? t('card.valid') : t('card.notValid')}
        </p>
        <p className="muted">
          {t('card.issued', { at: formatDateTime(card.issuedAt, language) })}
          {card.revokedAt && <> · {t('card.revokedAt', { at: formatDateTime(card.revokedAt, language) })}</>}
          {card.reissues > 0 && <> · {t('card.reissues', { count: card.reissues })}</>}
        </p>
        {canChange && <CardActions id={id} card={card} />}
      </dd>
    </div>
  );
}
