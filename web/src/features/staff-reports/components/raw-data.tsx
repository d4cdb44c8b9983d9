import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFileName } from '../../../../../rules/csv';
import { istDay } from '../../../../../rules/ist';
import type { ReportRow } from '../../../../../rules/report';
import { useStaffSession } from '../../../lib/staff-session';
import { exportReport } from '../api/export-report';
import { getReportRows } from '../api/get-report-rows';
import { districtLabel, formatCount, formatDateTime, formatPhone } from '../utils/format';
import { type ReportParams, reportApiQuery } from '../utils/report-params';

const PAGE = 50;

interface Rows {
  readonly key: string;
  readonly items: readonly ReportRow[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly failed?: boolean;
}

function download(parts: string[], fileName: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Every matching application, 50 at a time (Load more), and the CSV export of them all. */
export function RawData({ params }: { params: ReportParams }) {
  const { t, i18n } = useTranslation('staff');
  const { getIdToken } = useStaffSession();
  const key = reportApiQuery(params).toString();
  const [rows, setRows] = useState<Rows | null>(null);
  const [more, setMore] = useState(false);
  const [exporting, setExporting] = useState<{ done: number; total: number } | null>(null);
  const [exportNote, setExportNote] = useState<{ rows?: number; failed?: boolean } | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const c = new AbortController();
    getReportRows(getIdToken, params, { limit: PAGE }, c.signal).then(
      (page) =>
        setRows({ key, items: page.items, total: page.total, ...(page.nextCursor && { nextCursor: page.nextCursor }) }),
      () => {
        if (!c.signal.aborted) setRows({ key, items: [], total: 0, failed: true });
      },
    );
    return () => c.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [getIdToken, key]);

  useEffect(() => () => controller.current?.abort(), []);

  const current = rows?.key === key ? rows : null;

  const loadMore = async () => {
    if (!current?.nextCursor) return;
    setMore(true);
    try {
      const page = await getReportRows(getIdToken, params, { limit: PAGE, cursor: current.nextCursor });
      setRows((now) =>
        now?.key === key
          ? {
              key,
              items: [...now.items, ...page.items],
              total: page.total,
              ...(page.nextCursor && { nextCursor: page.nextCursor }),
            }
          : now,
      );
    } catch {
      setRows((now) => (now?.key === key ? { ...now, failed: true } : now));
    } finally {
      setMore(false);
    }
  };

  const runExport = async () => {
    const c = new AbortController();
    controller.current = c;
    setExportNote(null);
    setExporting({ done: 0, total: current?.total ?? 0 });
    try {
      const result = await exportReport(getIdToken, params, (done, total) => setExporting({ done, total }), c.signal);
      download(result.parts, exportFileName('applications_report', istDay(new Date())));
      setExportNote({ rows: result.rows });
    } catch {
      if (!c.signal.aborted) setExportNote({ failed: true });
    } finally {
      setExporting(null);
    }
  };

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
            <button type="button" className="button button-secondary" onClick={() => void loadMore()} disabled={more}>
              {t('reports.loadMore')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

const isStatus = (s: string): s is 'pending' | 'under_review' | 'approved' | 'rejected' =>
  s === 'pending' || s === 'under_review' || s === 'approved' || s === 'rejected';
