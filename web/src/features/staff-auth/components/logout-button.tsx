import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { signOutStaff } from '../api/session';

/** Signs out; the gate hears it from Amplify's Hub and shows the login screen. */
export function LogoutButton({ className = 'button button-secondary' }: { className?: string }) {
  const { t } = useTranslation('staff');
  const [busy, setBusy] = useState(false);
  const logout = () => {
    setBusy(true);
    signOutStaff().catch(() => setBusy(false));
  };
  return (
    <button type="button" className={className} onClick={logout} disabled={busy}>
      {t('session.logout')}
    </button>
  );
}
