import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { exportFileName } from '../../../../../rules/csv';
import { istDay } from '../../../../../rules/ist';
import { errorText } from '../../../i18n/error-text';
import { downloadCsv } from '../../../lib/download';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, invalidateAfterExport } from '../../../lib/staff-queries';
import { exportApplications, type ExportProgress } from '../api/export-applications';
import { formatCount } from '../../../lib/staff-format';
import type { ListFilters } from '../utils/list-params';

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly progress?: ExportProgress }
  | { readonly kind: 'done'; readonly rows: number }
  | { readonly kind: 'failed'; readonly code: string };

/** "Export CSV": every row matching the active filters, with a progress bar while the pages are read. */
export function ExportButton({ filters }: { filters: ListFilters }) {
  const { t } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const { getIdToken, districts } = useStaffSession();
  const client = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const run = async () => {
    const controller = new AbortController();
    controllerRef.current = controller;
    setPhase({ kind: 'running' });
    try {
      const { parts, rows } = await exportApplications(
        getIdToken,
        filters,
        (progress) => setPhase({ kind: 'running', progress }),
        controller.signal,
      );
      downloadCsv(parts, exportFileName('applications_export', istDay(new Date()), districts));
      setPhase({ kind: 'done', rows });
      invalidateAfterExport(client, 'applications');
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({ kind: 'failed', code: errorCode(error) });
    }
  };

  const running = phase.kind === 'running';
  const progress = running ? phase.progress : undefined;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <div className="export">
      <button type="button" className="button button-secondary" onClick={() => void run()} disabled={running}>
        {running ? t('export.exporting') : t('export.button')}
      </button>
      <div className="export-status" aria-live="polite">
        {running && (
          <div className="export-progress" data-testid="export-progress">
            <div
              className="progress"
              role="progressbar"
              aria-label={t('export.progressLabel')}
              aria-valuemin={0}
              aria-valuemax={progress?.total ?? 0}
              aria-valuenow={progress?.done ?? 0}
              aria-valuetext={
                progress
                  ? t('export.progress', { done: formatCount(progress.done), total: formatCount(progress.total) })
                  : t('export.preparing')
              }
            >
              <div className="progress-bar" style={{ width: `${percent}%` }} />
            </div>
            <span className="export-progress-text">
              {progress
                ? t('export.progress', { done: formatCount(progress.done), total: formatCount(progress.total) })
                : t('export.preparing')}
            </span>
          </div>
        )}
        {phase.kind === 'done' && <span className="export-done">{t('export.done', { count: phase.rows })}</span>}
      </div>
      {phase.kind === 'failed' && (
        <p className="alert alert-error export-failed" role="alert">
          {t('export.failed')} {errorText(tc, phase.code)}
        </p>
      )}
    </div>
  );
}
