import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { PageShell } from '../../../components/page-shell';
import { useRuntimeConfig } from '../../../config';
import { useAuthState } from '../hooks/use-auth-state';
import { FullScreenSpinner } from './full-screen-spinner';
import { LoginScreen } from './login-screen';
import { StaffAccess } from './staff-access';

/**
 * The root gate of the staff area (spec 4): a full-screen spinner while the stored
 * session is read, then the login screen or the staff app; Amplify's Hub switches
 * between them. The app gets the session (with logout) through StaffSessionContext.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('staff');
  const config = useRuntimeConfig();
  const state = useAuthState(config.cognito);

  if (state.status === 'loading') return <FullScreenSpinner label={t('gate.loading')} />;
  if (state.status === 'signedOut') {
    return (
      <PageShell>
        <LoginScreen />
      </PageShell>
    );
  }
  return <StaffAccess>{children}</StaffAccess>;
}
