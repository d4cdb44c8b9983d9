import { type ReactNode, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useLocation } from 'react-router-dom';
import { istDate } from '../../../rules/ist';
import { useStaffSession } from '../lib/staff-session';
import { staffPaths } from '../staff-paths';
import { LanguageSwitch } from './language-switch';

/**
 * The frame of the signed-in staff area: wing name, Dashboard, Reports, Campaigns and Grievances, who is
 * signed in with which role, the language switch and Logout. Wider than the public
 * page's: staff work on laptops.
 */
export function StaffShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const session = useStaffSession();
  const { pathname } = useLocation();
  const here = pathname.replace(/\/+$/, '');
  const [leaving, setLeaving] = useState(false);
  const year = istDate(new Date()).year;

  const logout = () => {
    setLeaving(true);
    session.signOut().catch(() => setLeaving(false));
  };

  return (
    <div className="shell staff-shell">
      <a className="skip-link" href="#main">
        {tc('shell.skipToContent')}
      </a>
      <header className="site-header staff-header">
        <div className="staff-header-inner">
          <div className="staff-header-start">
            <Link to={staffPaths.dashboard.getHref()} className="brand">
              <img className="brand-logo" src="/logo.svg" alt="" width="40" height="40" />
              <span className="brand-text">
                <span className="brand-name">{tc('shell.wingName')}</span>
                <span className="brand-sub">{t('area')}</span>
              </span>
            </Link>
            <nav className="staff-nav" aria-label={t('nav.label')}>
              {/* Link with aria-current rather than NavLink, whose code would land in the public bundle. */}
              <Link
                to={staffPaths.dashboard.getHref()}
                className="staff-nav-link"
                aria-current={here === staffPaths.dashboard.getHref() ? 'page' : undefined}
              >
                {t('nav.dashboard')}
              </Link>
              <Link
                to={staffPaths.reports.getHref()}
                className="staff-nav-link"
                aria-current={here === staffPaths.reports.getHref() ? 'page' : undefined}
              >
                {t('nav.reports')}
              </Link>
              <Link
                to={staffPaths.campaigns.getHref()}
                className="staff-nav-link"
                aria-current={here === staffPaths.campaigns.getHref() ? 'page' : undefined}
              >
                {t('nav.campaigns')}
              </Link>
              <Link
                to={staffPaths.grievances.getHref()}
                className="staff-nav-link"
                aria-current={here === staffPaths.grievances.getHref() ? 'page' : undefined}
              >
                {t('nav.grievances')}
              </Link>
              {/* Admins only: the server refuses anyone else the staff routes. */}
              {session.role === 'admin' && (
                <Link
                  to={staffPaths.staff.getHref()}
                  className="staff-nav-link"
                  aria-current={here === staffPaths.staff.getHref() ? 'page' : undefined}
                >
                  {t('nav.staff')}
                </Link>
              )}
            </nav>
          </div>
          <div className="staff-header-end">
            <div className="staff-user">
              <span className="visually-hidden">{t('session.signedInAs')} </span>
              <span className="staff-user-email" data-testid="staff-email">
                {session.email}
              </span>
              <span className={`role-badge role-${session.role}`} data-testid="staff-role">
                {t(`session.role.${session.role}`)}
              </span>
            </div>
            <LanguageSwitch />
            <button type="button" className="button button-secondary button-small" onClick={logout} disabled={leaving}>
              {t('session.logout')}
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="staff-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <p>{tc('shell.footer', { year })}</p>
      </footer>
    </div>
  );
}
