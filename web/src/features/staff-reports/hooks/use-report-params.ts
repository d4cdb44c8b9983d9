import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { parseReportParams, type ReportParams, reportParamsToSearch } from '../utils/report-params';

/**
 * The Reports page's filters, read from and written to the address bar. Each change
 * replaces the entry (filters apply live: a history entry per click would bury Back).
 */
export type ReportParamsUpdate = ReportParams | ((current: ReportParams) => ReportParams);

export function useReportParams(): { params: ReportParams; setParams: (update: ReportParamsUpdate) => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => parseReportParams(new URLSearchParams(location.search)), [location.search]);
  // flushSync: a checkbox shows its new state at once (a deferred navigation would let
  // React put the old one back first). Two changes before the next render (From then To, typed fast) must both count: each
  // update starts from the last one asked for, not from the rendered URL.
  const latest = useRef({ search: location.search, params });
  useLayoutEffect(() => {
    latest.current = { search: location.search, params };
  }, [location.search, params]);
  const setParams = useCallback(
    (update: ReportParamsUpdate) => {
      const next = typeof update === 'function' ? update(latest.current.params) : update;
      const search = reportParamsToSearch(next).toString();
      latest.current = { search: search ? `?${search}` : '', params: next };
      void navigate(
        { pathname: location.pathname, search: search ? `?${search}` : '' },
        { replace: true, flushSync: true },
      );
    },
    [navigate, location.pathname],
  );
  return { params, setParams };
}
