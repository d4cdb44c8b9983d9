import '../../styles/staff.css';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useLocation } from 'react-router-dom';
import { Spinner } from '../../components/spinner';
import { StaffShell } from '../../components/staff-shell';
import { AuthGate } from '../../features/staff-auth/components/auth-gate';
import { Dashboard } from '../../features/staff-dashboard/components/dashboard';
import { addStaffTranslations } from '../../i18n/staff';
import { StaffQueryProvider } from '../../lib/staff-query-provider';
import { staffPage, staffPaths } from '../../staff-paths';

// The /admin chunk: Amplify, the gate, the staff strings and styles, the staff area's data
// layer (lib/staff-queries.ts), and the dashboard.
// Nothing here reaches the public page's bundle. The staff pages are chosen here from
// the path (the public route table has one line for the whole area, and the router's
// <Routes> would add its code to the public bundle, where the router lives).

// Its own chunk: the reports (and their charts) load only when opened.
const ReportsRoute = lazy(async () => ({ default: (await import('./admin-reports')).ReportsRoute }));
// Its own chunk too: only admins open it.
const StaffRoute = lazy(async () => ({ default: (await import('./admin-staff')).StaffRoute }));
// Its own chunk: the campaigns, their QR codes and (later still) the poster.
const CampaignsRoute = lazy(async () => ({ default: (await import('./admin-campaigns')).CampaignsRoute }));
// Its own chunk: the grievances (issue 21).
const GrievancesRoute = lazy(async () => ({ default: (await import('./admin-grievances')).GrievancesRoute }));

/** /admin and below: the staff strings, then the root gate; signed in, the staff frame and its page. */
export function AdminRoute() {
  const { t, i18n } = useTranslation('staff');
  const { pathname } = useLocation();
  // Before any child renders: the staff namespace must be there on the first paint.
  useState(() => addStaffTranslations(i18n));
  const page = staffPage(pathname);
  const title = `${t('area')} · ${i18n.t('shell.documentTitle')}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <StaffQueryProvider>
      <AuthGate>
        <StaffShell>
          {page === 'dashboard' && <Dashboard />}
          {page === 'reports' && (
            <Suspense fallback={<Spinner label={t('gate.loading')} />}>
              <ReportsRoute />
            </Suspense>
          )}
          {page === 'staff' && (
            <Suspense fallback={<Spinner label={t('gate.loading')} />}>
              <StaffRoute fallback={<AdminNotFound />} />
            </Suspense>
          )}
          {page === 'campaigns' && (
            <Suspense fallback={<Spinner label={t('gate.loading')} />}>
              <CampaignsRoute />
            </Suspense>
          )}
          {page === 'grievances' && (
            <Suspense fallback={<Spinner label={t('gate.loading')} />}>
              <GrievancesRoute />
            </Suspense>
          )}
          {page === 'notFound' && <AdminNotFound />}
        </StaffShell>
      </AuthGate>
    </StaffQueryProvider>
  );
}

function AdminNotFound() {
  const { t } = useTranslation();
  return (
    <article className="card card-narrow">
      <div className="card-body">
        <h1 className="page-title">{t('notFound.title')}</h1>
        <p className="page-intro">{t('notFound.body')}</p>
        <Link className="button button-secondary" to={staffPaths.dashboard.getHref()}>
          {t('notFound.home')}
        </Link>
      </div>
    </article>
  );
}
