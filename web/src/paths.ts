// Every route of the SPA, in one place: `path` for the router, `getHref` for links.
export const paths = {
  home: {
    path: '/',
    getHref: () => '/',
  },
  /** The legal texts as pages of their own (the form and the number step open them in a dialog). */
  terms: {
    path: '/terms',
    getHref: () => '/terms',
  },
  privacy: {
    path: '/privacy',
    getHref: () => '/privacy',
  },
  notice: {
    path: '/notice',
    getHref: () => '/notice',
  },
  /** A grievance without a code (issue 21), and with `#<link>` its answer (rules/grievances.ts). */
  grievance: {
    path: '/grievance',
    getHref: () => '/grievance',
  },
  /** The member's card (issue 20): the link's secret follows `#` (rules/member-card.ts). */
  // Written out, not imported from rules/member-card.ts: that module's schemas would
  // join the first view (paths.test.ts holds the two equal).
  card: {
    path: '/card',
    getHref: (link: string) => `/card#${link}`,
  },
  /** A card's verification page, opened from its QR code: the signed token follows `#`. */
  verify: {
    path: '/v',
    getHref: (token: string) => `/v#${token}`,
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

/** /admin and everything under it: the staff area's entry (admin-app.tsx) serves it. */
export function isAdminPath(pathname: string): boolean {
  return pathname === paths.admin.path || pathname.startsWith(`${paths.admin.path}/`);
}
