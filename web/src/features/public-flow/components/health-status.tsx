import { useTranslation } from '../../../i18n/use-translation';
import { useHealth } from '../hooks/use-health';

/**
 * From GET /api/health: nothing while all is well (a visitor has no use for "online"), a
 * translated notice when the service cannot be reached. The live region is always in the
 * page, so that the notice is announced when it appears.
 */
export function HealthStatus() {
  const { t } = useTranslation();
  const state = useHealth();
  return (
    <div className="health-status" role="status" data-testid="health-status" data-state={state}>
      {state === 'error' && <p className="alert alert-warning">{t('health.error')}</p>}
    </div>
  );
}
