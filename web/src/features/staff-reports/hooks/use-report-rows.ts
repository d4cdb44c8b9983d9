import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReportRow } from '../../../../../rules/report';
import { useStaffSession } from '../../../lib/staff-session';
import { staffKeys } from '../../../lib/staff-queries';
import { getReportRows } from '../api/get-report-rows';
import { type ReportParams, reportApiQuery } from '../utils/report-params';

const PAGE = 50;

export interface ReportRows {
  readonly items: readonly ReportRow[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly failed?: boolean;
}

/**
 * Every application matching the filters, 50 at a time: `rows` is null until the first
 * page is there (or has failed: no rows then, and `failed`); `loadMore` reads the next
 * page onto the end (a failure keeps the rows read so far, and says so).
 */
export function useReportRows(params: ReportParams): {
  rows: ReportRows | null;
  loadingMore: boolean;
  loadMore: () => void;
} {
  const { getIdToken } = useStaffSession();
  const query = useInfiniteQuery({
    queryKey: staffKeys.reportRows(reportApiQuery(params).toString()),
    queryFn: ({ pageParam, signal }) =>
      getReportRows(getIdToken, params, { limit: PAGE, ...(pageParam && { cursor: pageParam }) }, signal),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });
  const pages = query.data?.pages;
  const last = pages?.at(-1);
  const rows: ReportRows | null =
    pages && last
      ? {
          items: pages.flatMap((page) => page.items),
          total: last.total,
          ...(last.nextCursor && { nextCursor: last.nextCursor }),
          ...(query.isFetchNextPageError && { failed: true }),
        }
      : query.isError
        ? { items: [], total: 0, failed: true }
        : null;
  return {
    rows,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
