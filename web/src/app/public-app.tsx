import type { i18n as I18n } from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider } from '../i18n/use-translation';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { paths } from '../paths';
import { LandingRoute } from './routes/landing';

import { NotFoundRoute } from './routes/not-found';
import { RootErrorBoundary, RootFallback, RootLayout } from './routes/root-layout';

// The terms, the privacy policy and the notice are read by few: their page is a chunk of its own.
const LegalRoute = lazy(async () => ({ default: (await import('./routes/legal')).LegalRoute }));
// The member's card (its QR code, its PNG and PDFs) and a card's verification (Ed25519):
// chunks of their own, opened from a link, never part of the first view.
const CardRoute = lazy(async () => ({ default: (await import('./routes/card')).CardRoute }));
const VerifyRoute = lazy(async () => ({ default: (await import('./routes/verify')).VerifyRoute }));
// A grievance without a code, and its answer's page (issue 21): a chunk of its own.
const GrievanceRoute = lazy(async () => ({ default: (await import('./routes/grievance')).GrievanceRoute }));

function lazyPage(pathname: string) {
  for (const name of ['terms', 'privacy', 'notice'] as const) {
    if (pathname === paths[name].path) return <LegalRoute name={name} />;
  }
  if (pathname === paths.card.path) return <CardRoute />;
  if (pathname === paths.verify.path) return <VerifyRoute />;
  if (pathname === paths.grievance.path) return <GrievanceRoute />;
  return undefined;
}

// The public page has one screen (its legal texts, the card pages, and a "not found"), so it needs no router: the router
// is the staff area's (admin-app.tsx), and its code stays out of what a visitor loads.
export function PublicApp({ config, i18n, pathname }: { config: RuntimeConfig; i18n: I18n; pathname: string }) {
  return (
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <RootErrorBoundary>
          <RootLayout>
            {pathname === paths.home.path ? (
              <LandingRoute />
            ) : lazyPage(pathname) ? (
              <Suspense fallback={<RootFallback />}>{lazyPage(pathname)}</Suspense>
            ) : (
              <NotFoundRoute />
            )}
          </RootLayout>
        </RootErrorBoundary>
      </I18nextProvider>
    </RuntimeConfigContext.Provider>
  );
}
