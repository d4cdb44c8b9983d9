// Every route of the SPA, in one place: `path` for the router, `getHref` for links.
export const paths = {
  home: {
    path: '/',
    getHref: () => '/',
  },
  admin: {
    path: '/admin',
    getHref: () => '/admin',
  },
  /** Everything under /admin: the staff area's own routes (reports, …) come later. */
  adminAny: {
    path: '/admin/*',
  },
  notFound: {
    path: '*',
  },
} as const;
