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
  /** /admin and everything under it: one lazy route; its pages are chosen inside its chunk. */
  adminAny: {
    path: '/admin/*',
  },
  notFound: {
    path: '*',
  },
} as const;
