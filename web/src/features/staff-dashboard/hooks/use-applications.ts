import { useQuery } from '@tanstack/react-query';
import type { ListResponse } from '../../../../../rules/staff-api';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, pause, staffKeys } from '../../../lib/staff-queries';
import { listApplications } from '../api/list-applications';
import type { ListParams } from '../utils/list-params';

export interface ApplicationsState {
  /** The page for the current query; while it is read again after a change, the last page stays. */
  readonly data?: ListResponse;
  readonly loading: boolean;
  readonly error?: string;
  /** The query as a string: what the page's selection and open rows belong to. */
  readonly queryKey: string;
  /** Reads the page again (after a failure). */
  readonly retry: () => void;
}

/** How often, and for how long, a search's page is read again while the index is behind the table. */
const SETTLE_EVERY_MS = 400;
const SETTLE_FOR_MS = 8000;

/**
 * Whether a search's page shows that the search index (kept by the applications stream,
 * a moment behind the table) has not yet caught up with a change: a row the filters no
 * longer hold (its status was changed since it was indexed; the rows themselves are read
 * from the table), or fewer rows than the total says (one was erased). Without a search
 * the list reads the table itself and is never behind.
 */
export function behindTheTable(page: ListResponse, params: ListParams): boolean {
  const { filters, pageSize } = params;
  if (!filters.q) return false;
  const outside = page.items.some(
    (row) =>
      (filters.status !== undefined && row.application_status !== filters.status) ||
      (filters.district !== undefined && row.revenue_district !== filters.district),
  );
  if (outside) return true;
  if (page.nextCursor !== undefined) return page.items.length < pageSize;
  return page.total !== (params.page - 1) * pageSize + page.items.length;
}

/**
 * The page, read again (every 400 ms, for up to 8 s) while it is behind the table: after
 * a status change or an erasure the listing is read at once, before the index has it.
 */
async function readSettled(read: () => Promise<ListResponse>, params: ListParams, signal: AbortSignal) {
  const deadline = Date.now() + SETTLE_FOR_MS;
  for (;;) {
    const page = await read();
    if (!behindTheTable(page, params) || Date.now() > deadline) return page;
    await pause(SETTLE_EVERY_MS, signal);
  }
}

/** The dashboard's page of applications for the address bar's state. */
export function useApplications(params: ListParams): ApplicationsState {
  const { getIdToken } = useStaffSession();
  const queryKey = JSON.stringify([params.filters, params.pageSize, params.cursor ?? '']);
  const { filters, pageSize, cursor } = params;
  const query = useQuery({
    queryKey: staffKeys.applicationList(queryKey),
    queryFn: ({ signal }) =>
      readSettled(
        () => listApplications(getIdToken, { filters, pageSize, ...(cursor && { cursor }) }, signal),
        params,
        signal,
      ),
  });
  // A failed read shows no page, also while it is tried again (as a first load does).
  const failed = query.isError;
  return {
    queryKey,
    ...(!failed && query.data && { data: query.data }),
    loading: query.isFetching,
    ...(failed && !query.isFetching && { error: errorCode(query.error) }),
    retry: () => void query.refetch(),
  };
}
