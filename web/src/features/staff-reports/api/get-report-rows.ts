import { type ReportRowsResponse, reportRowsResponseSchema } from '../../../../../rules/report';
import { staffRequest } from '../../../lib/staff-session';
import { reportApiQuery, type ReportParams } from '../utils/report-params';

/** GET /api/admin/reports/rows: one page of the matching applications, newest first; `exportId` when read for an export. */
export function getReportRows(
  getIdToken: () => Promise<string>,
  params: ReportParams,
  page: { readonly limit: number; readonly cursor?: string; readonly exportId?: string },
  signal?: AbortSignal,
): Promise<ReportRowsResponse> {
  const query = reportApiQuery(params);
  query.set('limit', String(page.limit));
  if (page.cursor) query.set('cursor', page.cursor);
  if (page.exportId) query.set('exportId', page.exportId);
  return staffRequest(getIdToken, `/admin/reports/rows?${query.toString()}`, {
    schema: reportRowsResponseSchema,
    signal,
  });
}
