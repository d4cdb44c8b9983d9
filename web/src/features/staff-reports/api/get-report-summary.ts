import { type ReportSummary, reportSummarySchema } from '../../../../../rules/report';
import { staffRequest } from '../../../lib/staff-session';
import { reportApiQuery, type ReportParams } from '../utils/report-params';

/** GET /api/admin/reports/summary: every figure of the page, over every matching application. */
export function getReportSummary(
  getIdToken: () => Promise<string>,
  params: ReportParams,
  signal?: AbortSignal,
): Promise<ReportSummary> {
  const query = reportApiQuery(params).toString();
  return staffRequest(getIdToken, `/admin/reports/summary${query ? `?${query}` : ''}`, {
    schema: reportSummarySchema,
    signal,
  });
}
