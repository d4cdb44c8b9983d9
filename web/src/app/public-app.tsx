import type { i18n as I18n } from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider } from '../i18n/use-translation';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { paths } from '../paths';
import { LandingRoute } from './routes/landing';

import { NotFoundRoute } from './routes/not-found';
import { RootErrorBoundary, RootFallback, RootLayout } from './routes/root-layout';

// The terms and the privacy policy are read by few: their page is a chunk of its own.
const LegalRoute = lazy(async () => ({ default: (await import('./routes/legal')).LegalRoute }));

// The public page has one screen (its terms and privacy policy, and a "not found"), so it needs no router: the router
// is the staff area's (admin-app.tsx), and its code stays out of what a visitor loads.
export function PublicApp({ config, i18n, pathname }: { config: RuntimeConfig; i18n: I18n; pathname: string }) {
  return (
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <RootErrorBoundary>
          <RootLayout>
            {pathname === paths.home.path ? (
              <LandingRoute />
            ) : pathname === paths.terms.path || pathname === paths.privacy.path ? (
              <Suspense fallback={<RootFallback />}>
                <LegalRoute name={pathname === paths.terms.path ? 'terms' : 'privacy'} />
              </Suspense>
            ) : (
              <NotFoundRoute />
            )}
          </RootLayout>
        </RootErrorBoundary>
      </I18nextProvider>
    </RuntimeConfigContext.Provider>
  );
}
