import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applicationStatuses } from '../../../../../rules/application';
import type { StatsResponse } from '../../../../../rules/report';
import { useStaffSession } from '../../../lib/staff-session';
import { getStats } from '../api/get-stats';
import { formatCount } from '../utils/format';

type Loaded = { readonly key: number; readonly stats?: StatsResponse; readonly failed?: boolean };

/** The total-applications card and one card per status: all applications, from the rollups. */
export function StatsCards({ reloadKey }: { reloadKey: number }) {
  const { t } = useTranslation('staff');
  const { getIdToken } = useStaffSession();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getStats(getIdToken, controller.signal).then(
      (stats) => setLoaded({ key: reloadKey, stats }),
      () => {
        if (!controller.signal.aborted)
          setLoaded((now) => ({ key: reloadKey, ...(now?.stats && { stats: now.stats }), failed: true }));
      },
    );
    return () => controller.abort();
  }, [getIdToken, reloadKey]);

  const stats = loaded?.stats;
  const busy = !loaded || loaded.key !== reloadKey;
  const value = (n: number | undefined) => (n === undefined ? '…' : formatCount(n));

  return (
    <section className="stats" aria-label={t('stats.label')} aria-busy={busy} data-testid="stats">
      {loaded?.failed && !stats && (
        <p className="alert alert-error stats-error" role="alert">
          {t('stats.failed')}
        </p>
      )}
      <div className="stat-card stat-total" data-testid="stat-total">
        <span className="stat-label">{t('stats.total')}</span>
        <span className="stat-value">{value(stats?.total)}</span>
        <span className="stat-note">{t('stats.allTime')}</span>
      </div>
      {applicationStatuses.map((status) => (
        <div key={status} className={`stat-card stat-${status}`} data-testid={`stat-${status}`}>
          <span className="stat-label">
            <span className="status-dot" aria-hidden="true" />
            {t(`status.${status}`)}
          </span>
          <span className="stat-value">{value(stats?.[status])}</span>
        </div>
      ))}
    </section>
  );
}
