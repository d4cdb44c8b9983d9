import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from '../i18n/use-translation';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { paths } from '../paths';
import { AdminRoute } from './routes/admin';
import { NotFoundRoute } from './routes/not-found';
import { RootError, RootFallback, RootLayout } from './routes/root-layout';

// The staff area's entry, loaded only under /admin: the router, Amplify, the gate and the
// dashboard (the reports are a further chunk). Nothing of it is in the public page.
export const adminRoutes: RouteObject[] = [
  {
    HydrateFallback: RootFallback,
    ErrorBoundary: RootError,
    children: [
      { path: paths.adminAny.path, Component: AdminRoute },
      {
        path: paths.notFound.path,
        Component: () => (
          <RootLayout>
            <NotFoundRoute />
          </RootLayout>
        ),
      },
    ],
  },
];

export function AdminApp({ config, i18n }: { config: RuntimeConfig; i18n: I18n }) {
  const [router] = useState(() => createBrowserRouter(adminRoutes));
  return (
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </RuntimeConfigContext.Provider>
  );
}
