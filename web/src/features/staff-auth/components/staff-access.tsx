import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../../components/page-shell';
import { errorText } from '../../../i18n/error-text';
import { ApiError } from '../../../lib/api-client';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { getMe, type MeResponse } from '../api/get-me';
import { currentIdToken, signOutStaff } from '../api/session';
import { FullScreenSpinner } from './full-screen-spinner';
import { LogoutButton } from './logout-button';

type Access =
  | { readonly attempt: number; readonly kind: 'ok'; readonly me: MeResponse }
  | { readonly attempt: number; readonly kind: 'forbidden'; readonly email: string }
  | { readonly attempt: number; readonly kind: 'failed'; readonly code: string };

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

/**
 * A signed-in user is let in only with a role the API grants (GET /api/admin/me): a
 * user in no staff group sees "no access"; a session the API no longer accepts is
 * signed out (the gate then shows the login screen).
 */
export function StaffAccess({ children }: { children: ReactNode }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  const [access, setAccess] = useState<Access | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getMe(currentIdToken, controller.signal).then(
      (me) => setAccess({ attempt, kind: 'ok', me }),
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        const code = error instanceof ApiError ? error.code : 'INTERNAL';
        if (code === 'UNAUTHORIZED') {
          await signOutStaff().catch(() => undefined);
          return;
        }
        if (code === 'FORBIDDEN') {
          const email = await currentIdToken().then(emailFromToken, () => '');
          setAccess({ attempt, kind: 'forbidden', email });
          return;
        }
        setAccess({ attempt, kind: 'failed', code });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const me = access?.kind === 'ok' ? access.me : undefined;
  const session = useMemo<StaffSession | null>(
    () => (me ? { email: me.email, role: me.role, getIdToken: currentIdToken, signOut: signOutStaff } : null),
    [me],
  );

  if (!access || access.attempt !== attempt) return <FullScreenSpinner label={t('gate.checkingAccess')} />;

  if (access.kind === 'forbidden') {
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

  if (access.kind === 'failed' || !session) {
    return (
      <PageShell>
        <article className="card card-narrow">
          <div className="card-body step">
            <div className="alert alert-error" role="alert">
              <p className="alert-line">{t('session.accessFailed')}</p>
              <p className="alert-detail">{errorText(tc, access.kind === 'failed' ? access.code : 'INTERNAL')}</p>
            </div>
            <button type="button" className="button button-primary" onClick={() => setAttempt((n) => n + 1)}>
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
