import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { paths } from '../paths';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { RootErrorBoundary, RootLayout } from './routes/root-layout';

// The public page has one screen (and a "not found"), so it needs no router: the router
// is the staff area's (admin-app.tsx), and its code stays out of what a visitor loads.
export function PublicApp({ config, i18n, pathname }: { config: RuntimeConfig; i18n: I18n; pathname: string }) {
  return (
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <RootErrorBoundary>
          <RootLayout>{pathname === paths.home.path ? <LandingRoute /> : <NotFoundRoute />}</RootLayout>
        </RootErrorBoundary>
      </I18nextProvider>
    </RuntimeConfigContext.Provider>
  );
}
