import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { exportFileName } from '../../../../../rules/csv';
import { istDay } from '../../../../../rules/ist';
import { downloadCsv } from '../../../lib/download';
import { districtLabel, formatCount, formatDateTime, formatPhone } from '../../../lib/staff-format';
import { useStaffSession } from '../../../lib/staff-session';
import { invalidateAfterExport } from '../../../lib/staff-queries';
import { exportReport } from '../api/export-report';
import { useReportRows } from '../hooks/use-report-rows';
import type { ReportParams } from '../utils/report-params';

/** Every matching application, 50 at a time (Load more), and the CSV export of them all. */
export function RawData({ params }: { params: ReportParams }) {
  const { t, i18n } = useTranslation('staff');
  const { rows: current, loadingMore: more, loadMore } = useReportRows(params);

  return (
    <section className="report-card report-card-wide report-raw" aria-labelledby="raw-title" data-testid="raw-data">
      <div className="report-raw-head">
        <div>
          <h2 className="report-card-title" id="raw-title">
            {t('reports.rawData')}
          </h2>
          <p className="muted" data-testid="raw-total" aria-live="polite">
            {current ? t('reports.matching', { count: current.total }) : '…'}
          </p>
        </div>
        <ReportExport params={params} total={current?.total ?? 0} />
      </div>
      {current?.failed && (
        <p className="alert alert-error" role="alert">
          {t('reports.rowsFailed')}
        </p>
      )}
      {/* Its own sideways scroll: the page keeps the width of the screen. */}
      <div className="table-scroll report-table-scroll" tabIndex={0} role="region" aria-labelledby="raw-title">
        <table className="report-table" aria-busy={!current} data-testid="raw-table">
          <thead>
            <tr>
              <th scope="col">{t('reports.name')}</th>
              <th scope="col">{t('reports.phone')}</th>
              <th scope="col">{t('reports.district')}</th>
              <th scope="col">{t('reports.status')}</th>
              <th scope="col">{t('reports.submitted')}</th>
            </tr>
          </thead>
          <tbody>
            {(current?.items ?? []).map((row) => (
              <tr key={row.id}>
                <td>{row.name}</td>
                <td className="nowrap">{formatPhone(row.phone_number)}</td>
                <td>{districtLabel(row.revenue_district, i18n.language, t('reports.unknown'))}</td>
                <td>
                  <span className={`status-badge status-${row.application_status}`}>
                    <span className="status-dot" aria-hidden="true" />
                    {isStatus(row.application_status) ? t(`status.${row.application_status}`) : row.application_status}
                  </span>
                </td>
                <td className="nowrap">{formatDateTime(row.submitted_at, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {current && (
        <div className="report-raw-foot">
          <span className="muted">
            {t('reports.showing', { shown: formatCount(current.items.length), total: formatCount(current.total) })}
          </span>
          {current.nextCursor && (
            <button type="button" className="button button-secondary" onClick={loadMore} disabled={more}>
              {t('reports.loadMore')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/** "Export CSV": every matching row (all pages, not the table's), on the record like the dashboard's export. */
function ReportExport({ params, total }: { params: ReportParams; total: number }) {
  const { t } = useTranslation('staff');
  const { getIdToken, districts } = useStaffSession();
  const client = useQueryClient();
  const [exporting, setExporting] = useState<{ done: number; total: number } | null>(null);
  const [exportNote, setExportNote] = useState<{ rows?: number; failed?: boolean } | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const runExport = async () => {
    const c = new AbortController();
    controller.current = c;
    setExportNote(null);
    setExporting({ done: 0, total });
    try {
      const result = await exportReport(
        getIdToken,
        params,
        (done, all) => setExporting({ done, total: all }),
        c.signal,
      );
      downloadCsv(result.parts, exportFileName('applications_report', istDay(new Date()), districts));
      setExportNote({ rows: result.rows });
      invalidateAfterExport(client, 'reports');
    } catch {
      if (!c.signal.aborted) setExportNote({ failed: true });
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="report-export">
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void runExport()}
        disabled={exporting !== null}
      >
        {exporting
          ? t('reports.exporting', { done: formatCount(exporting.done), total: formatCount(exporting.total) })
          : t('reports.export')}
      </button>
      <span aria-live="polite" className="muted">
        {exportNote?.rows !== undefined && t('reports.exported', { count: exportNote.rows })}
      </span>
      {exportNote?.failed && (
        <p className="alert alert-error" role="alert">
          {t('reports.exportFailed')}
        </p>
      )}
    </div>
  );
}

const isStatus = (s: string): s is 'pending' | 'under_review' | 'approved' | 'rejected' =>
  s === 'pending' || s === 'under_review' || s === 'approved' || s === 'rejected';
