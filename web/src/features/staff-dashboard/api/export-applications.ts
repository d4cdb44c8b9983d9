import { applicationExportColumns, csvParts, csvRecordLine } from '../../../../../rules/csv';
import { EXPORT_PAGE_SIZE } from '../../../../../rules/staff-api';
import { completeExport, startExport } from '../../../lib/staff-exports';
import type { ListFilters } from '../utils/list-params';
import { listApplications } from './list-applications';

export interface ExportProgress {
  readonly done: number;
  readonly total: number;
}

export interface ExportResult {
  /** The file's parts for `new Blob(parts)`: BOM and header, then one string per row. */
  readonly parts: string[];
  readonly rows: number;
}

/**
 * Every row matching the filters, not one page: records the export in the audit trail
 * (POST /api/admin/exports), reads the listing 1000 rows a request in its name (each
 * request is short, so 100,000 rows take 100 of them and none times out), then completes
 * the audit entry, whose row count the server kept. Memory: one string per row, joined
 * by the Blob.
 */
export async function exportApplications(
  getIdToken: () => Promise<string>,
  filters: ListFilters,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<ExportResult> {
  const { exportId, total } = await startExport(getIdToken, { filters }, signal);
  onProgress({ done: 0, total });
  const parts = csvParts([], applicationExportColumns);
  let rows = 0;
  let cursor: string | undefined;
  do {
    const page = await listApplications(getIdToken, { filters, pageSize: EXPORT_PAGE_SIZE, cursor, exportId }, signal);
    for (const item of page.items) parts.push(csvRecordLine(item, applicationExportColumns));
    rows += page.items.length;
    cursor = page.nextCursor;
    // Rows may arrive or go while reading: the bar never runs past its end.
    onProgress({ done: rows, total: Math.max(total, rows) });
  } while (cursor);
  await completeExport(getIdToken, exportId, signal);
  return { parts, rows };
}
