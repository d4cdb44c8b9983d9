import { useState } from 'react';
import type { StaffGrievance } from '../../../../../rules/grievances';
import { istDay } from '../../../../../rules/ist';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { districtName, formatDateTime, formatDay } from '../../../lib/staff-format';
import { useCloseGrievance } from '../hooks/use-grievances';
import { AnswerForm } from './answer-form';
import { DueBadge } from './due-badge';

/**
 * One ticket: its reference, due date and days left (overdue marked), who it came from
 * (the number masked, verified or not, its application and district), its text, and its
 * answer; for those who may change it, the answer form (while open) and the closing.
 */
export function GrievanceCard({
  grievance,
  now,
  canChange,
  onDone,
}: {
  grievance: StaffGrievance;
  now: Date;
  canChange: boolean;
  /** A change went through: what the page says. */
  onDone: (notice: string) => void;
}) {
  const { t, i18n } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const language = i18n.language;
  const [confirming, setConfirming] = useState(false);
  const closing = useCloseGrievance();
  const g = grievance;
  return (
    <li className="card grievance-card" data-testid={`grievance-${g.reference}`}>
      <div className="card-body">
        <div className="grievance-head">
          <h2 className="grievance-reference">{g.reference}</h2>
          <span className={`grievance-status grievance-status-${g.status}`}>{t(`grievances.status.${g.status}`)}</span>
          {g.status === 'open' && <DueBadge dueAt={g.dueAt} now={now} />}
        </div>
        <dl className="grievance-facts">
          <div>
            <dt>{t('grievances.due')}</dt>
            <dd data-testid="grievance-due-day">{formatDay(istDay(new Date(g.dueAt)), language)}</dd>
          </div>
          <div>
            <dt>{t('grievances.opened')}</dt>
            <dd>{formatDateTime(g.openedAt, language)}</dd>
          </div>
          <div>
            <dt>{t('grievances.via')}</dt>
            <dd>{t(g.via === 'verified' ? 'grievances.verified' : 'grievances.contact', { phone: g.phone })}</dd>
          </div>
          <div>
            <dt>{t('grievances.language')}</dt>
            <dd>{t(`grievances.languages.${g.language}`)}</dd>
          </div>
          <div>
            <dt>{t('grievances.application')}</dt>
            <dd>{g.applicationId ?? t('grievances.noApplication')}</dd>
          </div>
          {g.district && (
            <div>
              <dt>{t('grievances.district')}</dt>
              <dd>{districtName(g.district, language) ?? g.district}</dd>
            </div>
          )}
        </dl>
        <section className="grievance-block" aria-label={t('grievances.text')}>
          <h3>{t('grievances.text')}</h3>
          <p className="grievance-text" lang={g.language} data-testid="grievance-text">
            {g.text}
          </p>
        </section>
        {g.answer && (
          <section className="grievance-block" aria-label={t('grievances.answer')}>
            <h3>{t('grievances.answer')}</h3>
            <p className="grievance-text" lang={g.language}>
              {g.answer}
            </p>
            <p className="muted">
              {g.answeredAt && t('grievances.answeredOn', { date: formatDateTime(g.answeredAt, language) })}{' '}
              {g.answerSentAt
                ? t('grievances.sentOn', { date: formatDateTime(g.answerSentAt, language) })
                : t('grievances.notSentYet')}
            </p>
          </section>
        )}
        {canChange && g.status === 'open' && (
          <AnswerForm grievance={g} onAnswered={(reference) => onDone(t('grievances.answered', { reference }))} />
        )}
        {canChange && !confirming && (
          <div className="staff-actions">
            <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(true)}>
              {t('grievances.close')}
            </button>
          </div>
        )}
        {canChange && confirming && (
          <div className="grievance-confirm" role="group" aria-label={t('grievances.confirm')}>
            <p>{t('grievances.confirmClose', { reference: g.reference })}</p>
            {closing.failure && (
              <p className="alert alert-error" role="alert">
                {closing.failure.code === 'INTERNAL' ? t('grievances.failed') : errorText(tc, closing.failure.code)}
              </p>
            )}
            <div className="staff-actions">
              <button
                type="button"
                className="button button-danger button-small"
                disabled={closing.isPending}
                onClick={() =>
                  closing.mutate(g.id, { onSuccess: () => onDone(t('grievances.closed', { reference: g.reference })) })
                }
              >
                {closing.isPending ? t('grievances.closing') : t('grievances.confirm')}
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={closing.isPending}
                onClick={() => setConfirming(false)}
              >
                {t('grievances.cancel')}
              </button>
            </div>
          </div>
        )}
      </div>
    </li>
  );
}
