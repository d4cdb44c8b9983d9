import { useTranslation } from 'react-i18next';
import { useHealth } from '../hooks/use-health';

/** A one-line service status from GET /api/health. */
export function HealthStatus() {
  const { t } = useTranslation();
  const state = useHealth();
  return (
    <p className="health-status" role="status" data-testid="health-status" data-state={state}>
      <span className="health-dot" aria-hidden="true" />
      {t(`health.${state}`)}
    </p>
  );
}
