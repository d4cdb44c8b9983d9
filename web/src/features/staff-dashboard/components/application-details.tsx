import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { type ApplicationStatus, applicationStatuses } from '../../../../../rules/application-values';
import type { ApplicationDetail, ApplicationRow, AuditEntry, DecisionNotice } from '../../../../../rules/staff-api';
import { referralLink } from '../../../../../rules/campaigns';
import { APPLICANT_ACTOR, type CorrectableField, correctableFields } from '../../../../../rules/my-application';
import { errorText } from '../../../i18n/error-text';
import { useApplicationDetail } from '../hooks/use-application-detail';
import { formatCount, formatDateTime, formatDay } from '../../../lib/staff-format';
import { constituencyName } from '../utils/format';
import { CardField } from './card-field';
import { ReviewForm } from './review-form';
import { StatusBadge } from './status-badge';
import { useStaffSession } from '../../../lib/staff-session';

const isStatus = (value: string | undefined): value is ApplicationStatus =>
  value !== undefined && (applicationStatuses as readonly string[]).includes(value);

const isCorrectable = (field: string): field is CorrectableField =>
  (correctableFields as readonly string[]).includes(field);

/** "name, district": the corrected fields' names in the staff area's language. */
function correctedFields(entry: AuditEntry, label: (field: CorrectableField) => string): string {
  return (entry.fields ?? []).map((field) => (isCorrectable(field) ? label(field) : field)).join(', ');
}

function AuditChange({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('staff');
  if (entry.action === 'erase') return <>{t('audit.erase')}</>;
  if (entry.action === 'export') return <>{t('audit.export')}</>;
  if (entry.action === 'card-revoke') return <>{t('card.auditRevoke')}</>;
  if (entry.action === 'card-reissue') return <>{t('card.auditReissue')}</>;
  if (entry.action === 'membership-backfill') return <>{t('card.auditBackfill')}</>;
  if (entry.action === 'correction')
    return <>{t('audit.correction', { fields: correctedFields(entry, (field) => t(`audit.field.${field}`)) })}</>;
  return (
    <span className="audit-change">
      {isStatus(entry.from) ? <StatusBadge status={entry.from} /> : (entry.from ?? '—')}
      <span className="audit-arrow"> → </span>
      {isStatus(entry.to) ? <StatusBadge status={entry.to} /> : (entry.to ?? '—')}
    </span>
  );
}

/** "Decision notice: approved, by WhatsApp, 24 Nov 14:02, delivered" in the staff area's language. */
function NoticeLine({ notice, language }: { notice: DecisionNotice; language: string }) {
  const { t } = useTranslation('staff');
  const status =
    notice.status === 'failed' && notice.errorCode
      ? t('notices.failedWithCode', { code: notice.errorCode })
      : t(`notices.status.${notice.status}`);
  return (
    <p className="notice-line">
      {t('notices.line', {
        decision: t(`notices.decision.${notice.decision}`),
        channel: t(`notices.channel.${notice.channel}`),
        at: formatDateTime(notice.sentAt, language),
        status,
      })}
    </p>
  );
}

/**
 * The member's referral link (issued on their first approval) and what it brought
 * (issue 19): applications, and those of them approved.
 */
function ReferralField({ referrals }: { referrals: NonNullable<ApplicationDetail['referrals']> }) {
  const { t } = useTranslation('staff');
  return (
    <div className="details-field details-field-wide" data-testid="referrals">
      <dt>{t('details.referrals')}</dt>
      <dd>
        {referrals.code && (
          <p className="referral-link">
            <code>{referralLink(window.location.origin, referrals.code)}</code>
          </p>
        )}
        <p>
          {t('details.referralCounts', {
            brought: formatCount(referrals.brought),
            approved: formatCount(referrals.approved),
          })}
        </p>
      </dd>
    </div>
  );
}

/** The member number, given on the first approval (issue 20). */
function MemberNumberField({ memberNumber }: { memberNumber: string }) {
  const { t } = useTranslation('staff');
  return (
    <div className="details-field details-field-wide" data-testid="member-number">
      <dt>{t('details.memberNumber')}</dt>
      <dd>
        <code>{memberNumber}</code>
      </dd>
    </div>
  );
}

/** The expandable details row: every field, the decision notices, the audit trail, and (admins) the review controls. */
export function ApplicationDetails({
  row,
  canReview,
  onErase,
}: {
  row: ApplicationRow;
  canReview: boolean;
  onErase: (row: ApplicationRow) => void;
}) {
  const { t, i18n } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const canErase = useStaffSession().role === 'admin';
  const language = i18n.resolvedLanguage ?? 'en';
  const { loading, detail, error } = useApplicationDetail(row.id);
  const app = detail?.application.id === row.id ? detail.application : row;
  const notices = detail?.application.id === row.id ? detail.notices : [];
  const referrals = detail?.application.id === row.id ? detail.referrals : undefined;
  const card = detail?.application.id === row.id ? detail.card : undefined;

  const notGiven = <span className="muted">{t('details.notGiven')}</span>;
  const text = (value: string | undefined): ReactNode => (value ? value : notGiven);
  const option = (group: 'gender' | 'education' | 'occupation', value: string | undefined): ReactNode => {
    if (!value) return notGiven;
    const key = `options.${group}.${value}`;
    return i18n.exists(key) ? tc(key as 'options.gender.Male') : value;
  };
  const fields: [string, ReactNode][] = [
    [t('details.gender'), option('gender', app.gender)],
    [t('details.dateOfBirth'), app.date_of_birth ? formatDay(app.date_of_birth, language) : notGiven],
    [t('details.education'), option('education', app.education)],
    [t('details.specialization'), text(app.specialization)],
    [t('details.occupation'), option('occupation', app.occupation)],
    [t('details.constituency'), text(constituencyName(app.revenue_district, app.assembly_constituency, language))],
    [t('details.alternatePhone'), text(app.alternate_phone_number)],
    [
      t('details.member'),
      app.is_already_member === undefined ? notGiven : app.is_already_member ? t('details.yes') : t('details.no'),
    ],
    [t('details.address'), text(app.address)],
    [t('details.updated'), app.updated_at ? formatDateTime(app.updated_at, language) : notGiven],
  ];

  return (
    <div className="details" data-testid="application-details">
      <div className="details-main">
        <h3 className="details-heading">{t('details.heading')}</h3>
        <dl className="details-fields">
          {fields.map(([label, value]) => (
            <div key={label} className="details-field">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          <div className="details-field details-field-wide">
            <dt>{t('details.motivation')}</dt>
            <dd className="details-motivation">{text(app.motivation)}</dd>
          </div>
          {notices.length > 0 && (
            <div className="details-field details-field-wide" data-testid="decision-notices">
              <dt>{t('notices.heading')}</dt>
              <dd>
                {notices.map((notice) => (
                  <NoticeLine key={`${notice.decision}-${notice.sentAt}`} notice={notice} language={language} />
                ))}
              </dd>
            </div>
          )}
          {app.member_number && <MemberNumberField memberNumber={app.member_number} />}
          {card && <CardField id={app.id} card={card} canChange={canErase} />}
          {referrals && <ReferralField referrals={referrals} />}
          <div className="details-field details-field-wide">
            <dt>{t('details.id')}</dt>
            <dd>
              <code>{app.id}</code>
            </dd>
          </div>
        </dl>
        {canReview && <ReviewForm row={app} onErase={canErase ? () => onErase(app) : undefined} />}
      </div>
      <section className="audit" aria-labelledby={`audit-${row.id}`} aria-busy={loading}>
        <h3 className="details-heading" id={`audit-${row.id}`}>
          {t('audit.heading')}
        </h3>
        {error === 'NOT_FOUND' ? (
          <p className="alert alert-error">{t('details.gone')}</p>
        ) : error ? (
          <p className="alert alert-error" role="alert">
            {t('details.loadFailed')} {errorText(tc, error)}
          </p>
        ) : !detail ? (
          <p className="muted">{t('details.loading')}</p>
        ) : detail.audit.length === 0 ? (
          <p className="muted">{t('audit.empty')}</p>
        ) : (
          <ol className="audit-list" data-testid="audit-trail">
            {detail.audit.map((entry, index) => (
              <li key={`${entry.at}-${index}`} className="audit-entry">
                <div className="audit-entry-head">
                  <AuditChange entry={entry} />
                </div>
                <p className="audit-meta">
                  <time dateTime={entry.at}>{formatDateTime(entry.at, language)}</time> ·{' '}
                  <span>{entry.by === APPLICANT_ACTOR.email ? t('audit.byApplicant') : entry.by}</span>
                </p>
                {entry.note && (
                  <p className="audit-note">
                    <span className="visually-hidden">{t('audit.note')}: </span>
                    {entry.note}
                  </p>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
