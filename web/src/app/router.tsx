import { type RouteObject, createBrowserRouter } from 'react-router-dom';
import { paths } from '../paths';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { RootError, RootFallback, RootLayout } from './routes/root-layout';

export const routes: RouteObject[] = [
  {
    HydrateFallback: RootFallback,
    ErrorBoundary: RootError,
    children: [
      {
        Component: RootLayout,
        children: [
          // The public page is in the entry chunk: it is what almost every visitor opens.
          { path: paths.home.path, Component: LandingRoute },
          { path: paths.notFound.path, Component: NotFoundRoute },
        ],
      },
      // The staff area: one lazy chunk (Amplify, the gate, the dashboard) with its own
      // frame and pages; nothing of it is in the public page's bundle.
      { path: paths.adminAny.path, lazy: async () => ({ Component: (await import('./routes/admin')).AdminRoute }) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
