import { useQuery } from '@tanstack/react-query';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { getApplication } from '../api/get-application';

/** The details row's data; read again after a change (the last answer stays shown meanwhile). */
export function useApplicationDetail(id: string) {
  const { getIdToken } = useStaffSession();
  const query = useQuery({
    queryKey: staffKeys.application(id),
    queryFn: ({ signal }) => getApplication(getIdToken, id, signal),
  });
  const failed = query.isError;
  return {
    loading: query.isFetching,
    detail: failed ? undefined : query.data,
    error: failed && !query.isFetching ? errorCode(query.error) : undefined,
  };
}
