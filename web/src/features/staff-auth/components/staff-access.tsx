import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { PageShell } from '../../../components/page-shell';
import { errorText } from '../../../i18n/error-text';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { getMe, type MeResponse } from '../api/get-me';
import { currentIdToken, signOutStaff } from '../api/session';
import { FullScreenSpinner } from './full-screen-spinner';
import { LogoutButton } from './logout-button';

/** What GET /api/admin/me decided: let in, no staff role, or a session the API no longer takes (being signed out). */
type Access =
  | { readonly kind: 'ok'; readonly me: MeResponse }
  | { readonly kind: 'forbidden'; readonly email: string }
  | { readonly kind: 'signingOut' };

function emailFromToken(token: string): string {
  try {
    const payload = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as {
      email?: unknown;
    };
    return typeof payload.email === 'string' ? payload.email : '';
  } catch {
    return '';
  }
}

/** Asks the API who is signed in: a failure other than these two is the query's error (Retry). */
async function readAccess(signal: AbortSignal): Promise<Access> {
  try {
    return { kind: 'ok', me: await getMe(currentIdToken, signal) };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'UNAUTHORIZED') {
      await signOutStaff().catch(() => undefined);
      return { kind: 'signingOut' };
    }
    if (code !== 'FORBIDDEN') throw error;
    return { kind: 'forbidden', email: await currentIdToken().then(emailFromToken, () => '') };
  }
}

/**
 * A signed-in user is let in only with a role the API grants (GET /api/admin/me): a
 * user in no staff group sees "no access"; a session the API no longer accepts is
 * signed out (the gate then shows the login screen).
 */
export function StaffAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const query = useQuery({ queryKey: staffKeys.me, queryFn: ({ signal }) => readAccess(signal) });
  const access = query.data;

  const me = access?.kind === 'ok' ? access.me : undefined;
  const session = useMemo<StaffSession | null>(
    () => (me ? { email: me.email, role: me.role, districts: me.districts, getIdToken: currentIdToken, signOut: signOutStaff } : null),
    [me],
  );

  // Also while Retry asks again, and while a refused session is signed out (the gate then shows the login screen).
  if (query.isFetching || (!access && !query.isError) || access?.kind === 'signingOut') {
    return <FullScreenSpinner label={t('gate.checkingAccess')} />;
  }

  if (access?.kind === 'forbidden') {
    return (
      <PageShell>
        <article className="card card-narrow" data-testid="staff-no-access">
          <div className="card-body step">
            <h1 className="page-title">{t('noAccess.title')}</h1>
            <div className="alert alert-error" role="alert">
              <p className="alert-line">{t('noAccess.body', { email: access.email })}</p>
              <p className="alert-line">{t('noAccess.hint')}</p>
            </div>
            <LogoutButton className="button button-primary" />
          </div>
        </article>
      </PageShell>
    );
  }

  if (!session) {
    return (
      <PageShell>
        <article className="card card-narrow">
          <div className="card-body step">
            <div className="alert alert-error" role="alert">
              <p className="alert-line">{t('session.accessFailed')}</p>
              <p className="alert-detail">{errorText(tc, errorCode(query.error))}</p>
            </div>
            <button type="button" className="button button-primary" onClick={() => void query.refetch()}>
              {t('session.retry')}
            </button>
            <LogoutButton className="button button-secondary" />
          </div>
        </article>
      </PageShell>
    );
  }

  return <StaffSessionContext.Provider value={session}>{children}</StaffSessionContext.Provider>;
}
