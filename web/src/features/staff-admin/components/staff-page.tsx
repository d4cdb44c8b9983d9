import './staff-admin.css';
import { useState } from 'react';
import type { StaffMember } from '../../../../../rules/staff-admin';
import { useTranslation } from '../../../i18n/use-translation';
import { useStaffSession } from '../../../lib/staff-session';
import { useChangeStaff, useStaffMembers } from '../hooks/use-staff-members';
import { InviteForm } from './invite-form';
import { MemberCard, type MemberRequest } from './member-card';
import { ResetDialog } from './reset-dialog';

/**
 * /admin/staff, admins only (the nav shows it to admins; the server refuses anyone else):
 * every member with role, districts, status, authenticator and last sign-in; an
 * invitation; a role and districts, disable and enable, and an authenticator reset after
 * a confirmation. A temporary password (local stack only) is shown once, in the notice.
 */
export function StaffPage() {
  const { t } = useTranslation('staff');
  const session = useStaffSession();
  const members = useStaffMembers();
  const change = useChangeStaff();
  const [notice, setNotice] = useState<string | null>(null);
  const [resetting, setResetting] = useState<StaffMember | null>(null);
  const [acting, setActing] = useState<string | null>(null);

  const request = (member: StaffMember) => (wanted: MemberRequest, done?: () => void) => {
    if (wanted.kind === 'reset-mfa') {
      change.reset();
      setResetting(member);
      return;
    }
    setActing(member.sub);
    setNotice(null);
    change.mutate(
      wanted.kind === 'assign'
        ? {
            action: 'assign',
            sub: member.sub,
            assignment: { ...wanted.assignment, districts: [...wanted.assignment.districts] },
          }
        : { action: wanted.kind, sub: member.sub },
      { onSuccess: () => done?.() },
    );
  };

  const confirmReset = () => {
    if (!resetting) return;
    const { email, sub } = resetting;
    change.mutate(
      { action: 'reset-mfa', sub },
      {
        onSuccess: (answer) => {
          setResetting(null);
          setNotice(
            answer.temporaryPassword
              ? t('staffAdmin.resetDone_local', { email, password: answer.temporaryPassword })
              : t('staffAdmin.resetDone_aws', { email }),
          );
        },
      },
    );
  };

  const failure = change.failure;
  const errorsFor = (sub: string) => {
    if (!failure || acting !== sub || resetting) return null;
    return Object.keys(failure.fields).length > 0 ? failure.fields : { sub: 'FAILED' };
  };

  return (
    <section className="staff-admin" aria-labelledby="staff-admin-title">
      <h1 id="staff-admin-title" className="page-title">
        {t('staffAdmin.title')}
      </h1>
      <p className="page-intro">{t('staffAdmin.intro')}</p>
      {notice && (
        <p className="alert alert-success staff-wrap" role="status" data-testid="staff-notice">
          {notice}
        </p>
      )}
      <InviteForm
        onInvited={(email, password) =>
          setNotice(
            password ? t('staffAdmin.invited_local', { email, password }) : t('staffAdmin.invited_aws', { email }),
          )
        }
      />
      {members.isPending && <p className="muted">{t('staffAdmin.loading')}</p>}
      {members.isError && (
        <p className="alert alert-error" role="alert">
          {t('staffAdmin.loadFailed')}{' '}
          <button type="button" className="button button-secondary button-small" onClick={() => void members.refetch()}>
            {t('staffAdmin.retry')}
          </button>
        </p>
      )}
      {members.data && (
        <ul className="staff-members" aria-label={t('staffAdmin.title')}>
          {members.data.items.map((member) => (
            <MemberCard
              key={member.sub}
              member={member}
              self={member.email === session.email}
              busy={change.isPending && acting === member.sub}
              errors={errorsFor(member.sub)}
              onRequest={request(member)}
            />
          ))}
        </ul>
      )}
      {resetting && (
        <ResetDialog
          member={resetting}
          busy={change.isPending}
          failed={change.failure ? t('staffAdmin.changeFailed') : null}
          onConfirm={confirmReset}
          onClose={() => setResetting(null)}
        />
      )}
    </section>
  );
}
