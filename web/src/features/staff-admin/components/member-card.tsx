import { type FormEvent, useState } from 'react';
import type { StaffMember } from '../../../../../rules/staff-admin';
import { useTranslation } from '../../../i18n/use-translation';
import { formatDateTime } from '../../../lib/staff-format';
import { districtNames } from '../utils/district-options';
import { type Assignment, AssignmentFields, FieldError } from './assignment-fields';

export type MemberRequest = { kind: 'assign'; assignment: Assignment } | { kind: 'disable' | 'enable' | 'reset-mfa' };

/**
 * One member as a card (a table of seven columns does not fit a phone): what they are,
 * and the admin's actions on them. Not on yourself: no disable, no reset, no role change
 * (the server refuses these too).
 */
export function MemberCard({
  member,
  self,
  busy,
  errors,
  onRequest,
}: {
  member: StaffMember;
  self: boolean;
  busy: boolean;
  /** The last failed change's field codes, when it was this member's. */
  errors: Record<string, string> | null;
  onRequest: (request: MemberRequest, done?: () => void) => void;
}) {
  const { t, i18n } = useTranslation('staff');
  const [editing, setEditing] = useState<Assignment | null>(null);
  const status = !member.enabled ? 'disabled' : member.status === 'FORCE_CHANGE_PASSWORD' ? 'invited' : 'active';
  const districts =
    member.role === 'admin' || member.districts.length === 0
      ? t('staffAdmin.everyDistrict')
      : districtNames(member.districts, i18n.language);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (editing) onRequest({ kind: 'assign', assignment: editing }, () => setEditing(null));
  };

  return (
    <li className="card staff-member" data-testid="staff-member">
      <div className="card-body">
        <p className="staff-member-email staff-wrap">
          {member.email} {self && <span className="muted">({t('staffAdmin.you')})</span>}
        </p>
        <dl className="staff-member-facts">
          <div>
            <dt>{t('staffAdmin.role')}</dt>
            <dd>
              {member.role ? (
                <span className={`role-badge role-${member.role}`}>{t(`session.role.${member.role}`)}</span>
              ) : (
                t('staffAdmin.noRole')
              )}
            </dd>
          </div>
          <div>
            <dt>{t('staffAdmin.districts')}</dt>
            <dd>{districts}</dd>
          </div>
          <div>
            <dt>{t('staffAdmin.status')}</dt>
            <dd className={`staff-status staff-status-${status}`}>{t(`staffAdmin.${status}`)}</dd>
          </div>
          <div>
            <dt>{t('staffAdmin.mfa')}</dt>
            <dd>{member.mfa ? t('staffAdmin.mfaSet') : t('staffAdmin.mfaNotSet')}</dd>
          </div>
          <div>
            <dt>{t('staffAdmin.lastSignIn')}</dt>
            <dd>{member.lastSignIn ? formatDateTime(member.lastSignIn, i18n.language) : t('staffAdmin.notKnown')}</dd>
          </div>
        </dl>
        {errors && <FieldError id={`${member.sub}-error`} field="sub" code={errors.sub} />}
        {editing ? (
          <form className="staff-edit" onSubmit={save} noValidate>
            <AssignmentFields value={editing} onChange={setEditing} errors={errors ?? {}} />
            <div className="staff-actions">
              <button type="submit" className="button button-primary button-small" disabled={busy}>
                {busy ? t('staffAdmin.saving') : t('staffAdmin.save')}
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => setEditing(null)}
                disabled={busy}
              >
                {t('staffAdmin.cancel')}
              </button>
            </div>
          </form>
        ) : (
          !self && (
            <div className="staff-actions" role="group" aria-label={t('staffAdmin.actions')}>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => setEditing({ role: member.role ?? 'viewer', districts: member.districts })}
                disabled={busy}
              >
                {t('staffAdmin.edit')}
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => onRequest({ kind: member.enabled ? 'disable' : 'enable' })}
                disabled={busy}
              >
                {member.enabled ? t('staffAdmin.disable') : t('staffAdmin.enable')}
              </button>
              <button
                type="button"
                className="button button-danger button-small"
                onClick={() => onRequest({ kind: 'reset-mfa' })}
                disabled={busy}
              >
                {t('staffAdmin.resetMfa')}
              </button>
            </div>
          )
        )}
      </div>
    </li>
  );
}
