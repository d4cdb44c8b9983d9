import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

// The staff area's data layer (TanStack Query, in the /admin chunk only): one client,
// the query keys of every resource the staff screens read, and what each change makes
// stale. The features own their fetchers and query hooks; the keys live here because a
// change made on one screen (a status change on the dashboard) makes another's data
// (the reports) stale, and features do not import each other.

export const staffKeys = {
  me: ['me'] as const,
  /** Every listing and details row of applications. */
  applications: ['applications'] as const,
  applicationLists: ['applications', 'list'] as const,
  applicationList: (query: string) => ['applications', 'list', query] as const,
  application: (id: string) => ['applications', 'detail', id] as const,
  stats: ['stats'] as const,
  /** Every figure and row of the Reports page. */
  reports: ['reports'] as const,
  reportSummary: (query: string) => ['reports', 'summary', query] as const,
  reportRowLists: ['reports', 'rows'] as const,
  reportRows: (query: string) => ['reports', 'rows', query] as const,
  /** The Staff page's list of the staff pool's members (admins only). */
  staff: ['staff'] as const,
  /**
   * The campaigns (issue 19): the Campaigns page's list and the names of the campaign
   * filters and "Top campaigns" (a coordinator's: their districts' only).
   */
  campaigns: ['campaigns'] as const,
  /** The Grievances page's list (issue 21): the tickets not yet closed that this staff member may see. */
  grievances: ['grievances'] as const,
};

/**
 * A screen keeps its data only while it shows it (gcTime 0): every screen opens on a
 * fresh answer, as it did before the data layer. No retries here (the API client
 * already retries a busy answer) and no refetch on focus: a reload is what a change
 * asks for, through the invalidations below.
 */
export function createStaffQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: 0, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/**
 * After a status change or an erasure: the listings, the details rows, the totals and
 * the reports. Not awaited by the caller: the form is free again as soon as the change
 * is answered, and the screens show their last data while they read again.
 */
export function invalidateAfterChange(client: QueryClient): void {
  for (const queryKey of [staffKeys.applications, staffKeys.stats, staffKeys.reports]) {
    void client.invalidateQueries({ queryKey });
  }
}

/**
 * After an export: the rows shown are read again, so that the screen holds what the file
 * does (the export read the listing as it is now). An export changes no figure.
 */
export function invalidateAfterExport(client: QueryClient, rows: 'applications' | 'reports'): void {
  void client.invalidateQueries({
    queryKey: rows === 'applications' ? staffKeys.applicationLists : staffKeys.reportRowLists,
  });
}

/** A failed call as the stable code the screens translate. */
export const errorCode = (error: unknown): string => (error instanceof ApiError ? error.code : 'INTERNAL');

/** Waits `ms`, or fails as aborted when the query is cancelled meanwhile. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      fail(new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
