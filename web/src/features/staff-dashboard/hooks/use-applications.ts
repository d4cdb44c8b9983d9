import { useEffect, useState } from 'react';
import type { ListResponse } from '../../../../../rules/staff-api';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { listApplications } from '../api/list-applications';
import type { ListParams } from '../utils/list-params';

interface Loaded {
  readonly queryKey: string;
  readonly reloadKey: number;
  readonly data?: ListResponse;
  readonly error?: string;
}

export interface ApplicationsState {
  /** The page for the current query; after a change (same query, new reloadKey) the last page stays until the new one arrives. */
  readonly data?: ListResponse;
  readonly loading: boolean;
  readonly error?: string;
  readonly queryKey: string;
}

/** The dashboard's page of applications for the address bar's state. */
export function useApplications(params: ListParams, reloadKey: number): ApplicationsState {
  const { getIdToken } = useStaffSession();
  const queryKey = JSON.stringify([params.filters, params.pageSize, params.cursor ?? '']);
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const [filters, pageSize, cursor] = JSON.parse(queryKey) as [ListParams['filters'], number, string];
    listApplications(getIdToken, { filters, pageSize, ...(cursor && { cursor }) }, controller.signal).then(
      (data) => setLoaded({ queryKey, reloadKey, data }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setLoaded({ queryKey, reloadKey, error: error instanceof ApiError ? error.code : 'INTERNAL' });
        }
      },
    );
    return () => controller.abort();
  }, [getIdToken, queryKey, reloadKey]);

  const sameQuery = loaded?.queryKey === queryKey;
  const current = sameQuery && loaded.reloadKey === reloadKey;
  return {
    queryKey,
    data: sameQuery ? loaded.data : undefined,
    loading: !current,
    error: current ? loaded.error : undefined,
  };
}
