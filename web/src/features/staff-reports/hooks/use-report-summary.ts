import { useEffect, useState } from 'react';
import type { ReportSummary } from '../../../../../rules/report';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { getReportSummary } from '../api/get-report-summary';
import { type ReportParams, reportApiQuery } from '../utils/report-params';

/** Field codes the page explains itself (dates); otherwise the error's code, which the page translates. */
export type SummaryError =
  { readonly field: 'RANGE_TOO_LONG' | 'RANGE_INVALID' | 'INVALID_DATE' } | { readonly code: string };

export function summaryError(error: unknown): SummaryError {
  if (error instanceof ApiError) {
    const codes = Object.values(error.details.fields ?? {});
    for (const field of ['RANGE_TOO_LONG', 'RANGE_INVALID', 'INVALID_DATE'] as const) {
      if (codes.includes(field)) return { field };
    }
  }
  // Never the server's English message: a Tamil screen shows the code's translation.
  return { code: error instanceof ApiError ? error.code : 'INTERNAL' };
}

export interface SummaryState {
  readonly data?: ReportSummary;
  readonly loading: boolean;
  readonly error?: SummaryError;
}

/** The report for the filters; null params: none wanted. A newer request cancels the older. */
export function useReportSummary(params: ReportParams | null): SummaryState {
  const { getIdToken } = useStaffSession();
  const key = params ? reportApiQuery(params).toString() : null;
  const [state, setState] = useState<{ key: string | null; data?: ReportSummary; error?: SummaryError }>({ key: null });

  useEffect(() => {
    if (key === null || !params) return;
    const controller = new AbortController();
    getReportSummary(getIdToken, params, controller.signal).then(
      (data) => setState({ key, data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ key, error: summaryError(error) });
      },
    );
    return () => controller.abort();
    // params is read through key (its serialisation).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [getIdToken, key]);

  const current = state.key === key;
  return {
    ...(state.data && { data: state.data }),
    loading: key !== null && !current,
    ...(current && state.error !== undefined && { error: state.error }),
  };
}
