import { HealthStatus } from '../../features/public-flow/components/health-status';
import { PublicFlow } from '../../features/public-flow/components/public-flow';

export function LandingRoute() {
  return (
    <>
      <PublicFlow />
      <HealthStatus />
    </>
  );
}
