import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  type ListFilters,
  type ListHistoryState,
  type ListParams,
  listParamsToSearch,
  type PageSize,
  parseListParams,
  readCursorStack,
} from '../utils/list-params';

export interface ListNavigation {
  readonly params: ListParams;
  readonly applyFilters: (filters: ListFilters) => void;
  readonly setPageSize: (pageSize: PageSize) => void;
  readonly next: (nextCursor: string) => void;
  readonly previous: () => void;
}

/**
 * The dashboard's list state, read from and written to the address bar (each change is
 * a history entry), the search term to the entry's state only (utils/list-params.ts).
 * useLocation and useNavigate only: the router's other hooks would add their code to the
 * public page's bundle, where the router lives.
 */
export function useListParams(): ListNavigation {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(
    () => parseListParams(new URLSearchParams(location.search), location.state),
    [location.search, location.state],
  );
  const stack = readCursorStack(location.state, params.page);
  // What the last change asked for, until the page renders it: "Apply" and then the rows
  // per page before the next render (a slow phone, a quick hand) keep both changes.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);

  const go = useCallback(
    (next: ListParams, cursors?: string[]) => {
      latest.current = next;
      const search = listParamsToSearch(next).toString();
      const state: ListHistoryState = { ...(next.filters.q && { q: next.filters.q }), ...(cursors && { cursors }) };
      void navigate(
        { pathname: location.pathname, search: search ? `?${search}` : '' },
        { state: Object.keys(state).length > 0 ? state : null },
      );
    },
    [navigate, location.pathname],
  );

  return {
    params,
    applyFilters: (filters) => go({ filters, pageSize: latest.current.pageSize, page: 1 }),
    setPageSize: (pageSize) => go({ filters: latest.current.filters, pageSize, page: 1 }),
    next: (nextCursor) =>
      go({ ...params, page: params.page + 1, cursor: nextCursor }, [...(stack ?? []), params.cursor ?? '']),
    previous: () => {
      if (params.page <= 1) return;
      const target = params.page - 1;
      const cursor = stack?.[target - 1];
      // Opened from a shared link (no stack kept) or back to the first page: start again.
      if (!stack || target === 1 || !cursor) {
        go({ filters: params.filters, pageSize: params.pageSize, page: 1 });
        return;
      }
      go({ filters: params.filters, pageSize: params.pageSize, page: target, cursor }, stack.slice(0, target - 1));
    },
  };
}
