import { useQuery } from '@tanstack/react-query';
import type { ListResponse } from '../../../../../rules/staff-api';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
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

/** The dashboard's page of applications for the address bar's state. */
export function useApplications(params: ListParams): ApplicationsState {
  const { getIdToken } = useStaffSession();
  const queryKey = JSON.stringify([params.filters, params.pageSize, params.cursor ?? '']);
  const { filters, pageSize, cursor } = params;
  const query = useQuery({
    queryKey: staffKeys.applicationList(queryKey),
    queryFn: ({ signal }) => listApplications(getIdToken, { filters, pageSize, ...(cursor && { cursor }) }, signal),
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
