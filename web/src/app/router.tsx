import { type RouteObject, createBrowserRouter } from 'react-router-dom';
import { paths } from '../paths';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { RootError, RootFallback, RootLayout } from './routes/root-layout';

const adminRoute = async () => ({ Component: (await import('./routes/admin')).AdminRoute });

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: RootFallback,
    ErrorBoundary: RootError,
    children: [
      // The public page is in the entry chunk: it is what almost every visitor opens.
      { path: paths.home.path, Component: LandingRoute },
      { path: paths.admin.path, lazy: adminRoute },
      { path: paths.adminAny.path, lazy: adminRoute },
      { path: paths.notFound.path, Component: NotFoundRoute },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
