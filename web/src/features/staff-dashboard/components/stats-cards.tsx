import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { useStats } from '../hooks/use-stats';
import { formatCount } from '../../../lib/staff-format';

/** The total-applications card and one card per status: all applications, from the rollups. */
export function StatsCards() {
  const { t } = useTranslation('staff');
  const { stats, busy, failed } = useStats();
  const value = (n: number | undefined) => (n === undefined ? '…' : formatCount(n));

  return (
    <section className="stats" aria-label={t('stats.label')} aria-busy={busy} data-testid="stats">
      {failed && !stats && (
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
