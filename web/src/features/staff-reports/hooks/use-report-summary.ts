import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReportSummary } from '../../../../../rules/report';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { staffKeys } from '../../../lib/staff-queries';
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

/**
 * The report for the filters; null params: none wanted. A newer request cancels the
 * older; the last report stays shown until the new one arrives (a failure shows none).
 */
export function useReportSummary(params: ReportParams | null): SummaryState {
  const { getIdToken } = useStaffSession();
  const key = params ? reportApiQuery(params).toString() : '';
  const query = useQuery({
    queryKey: staffKeys.reportSummary(key),
    queryFn: ({ signal }) => getReportSummary(getIdToken, params!, signal),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
  const failed = query.isError;
  return {
    ...(!failed && query.data && { data: query.data }),
    loading: query.isFetching,
    ...(failed && !query.isFetching && { error: summaryError(query.error) }),
  };
}
