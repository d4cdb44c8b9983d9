// The staff area's own pages, chosen inside the /admin chunk from the path: the public
// route table (paths.ts, in the entry bundle) holds one lazy line for the whole area.
export const staffPaths = {
  dashboard: { getHref: () => '/admin' },
  reports: { getHref: () => '/admin/reports' },
  staff: { getHref: () => '/admin/staff' },
  campaigns: { getHref: () => '/admin/campaigns' },
  grievances: { getHref: () => '/admin/grievances' },
} as const;

export type StaffPage = 'dashboard' | 'reports' | 'staff' | 'campaigns' | 'grievances' | 'notFound';

/** The staff page for a path under /admin (a trailing slash is the same page). */
export function staffPage(pathname: string): StaffPage {
  const rest = pathname.replace(/^\/admin\/?/, '').replace(/\/+$/, '');
  if (rest === '') return 'dashboard';
  if (rest === 'reports') return 'reports';
  if (rest === 'staff') return 'staff';
  if (rest === 'campaigns') return 'campaigns';
  if (rest === 'grievances') return 'grievances';
  return 'notFound';
}
