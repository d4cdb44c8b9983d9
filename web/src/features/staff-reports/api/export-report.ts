import { csvParts, csvRecordLine } from '../../../../../rules/csv';
import { MAX_ROWS_PER_PAGE, type ReportRow } from '../../../../../rules/report';
import { completeExport, startExport } from '../../../lib/staff-exports';
import { reportApiQuery, type ReportParams } from '../utils/report-params';
import { getReportRows } from './get-report-rows';

/** The export's columns: those of the Raw Data table, as stored. */
const reportExportColumns = [
  'id',
  'name',
  'phone_number',
  'revenue_district',
  'application_status',
  'submitted_at',
] as const satisfies readonly (keyof ReportRow)[];

/**
 * Every row matching the filters (all pages, not the table's page), as the parts of a
 * CSV file (rules/csv.ts: BOM, every cell quoted, formulas neutralised). On the record
 * like the dashboard's export: started in the audit trail, read in its name, completed.
 */
export async function exportReport(
  getIdToken: () => Promise<string>,
  params: ReportParams,
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<{ parts: string[]; rows: number }> {
  const { exportId } = await startExport(getIdToken, { report: Object.fromEntries(reportApiQuery(params)) }, signal);
  const parts = csvParts([], reportExportColumns);
  let rows = 0;
  let cursor: string | undefined;
  do {
    const page = await getReportRows(getIdToken, params, { limit: MAX_ROWS_PER_PAGE, cursor, exportId }, signal);
    for (const item of page.items) parts.push(csvRecordLine(item, reportExportColumns));
    rows += page.items.length;
    cursor = page.nextCursor;
    onProgress(rows, Math.max(rows, page.total));
  } while (cursor);
  await completeExport(getIdToken, exportId, signal);
  return { parts, rows };
}
