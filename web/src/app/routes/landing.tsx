import { HealthStatus } from '../../features/public-flow/components/health-status';
import { PublicFlow } from '../../features/public-flow/components/public-flow';

export function LandingRoute() {
  return (
    <>
      {/* Above the card: a visitor sees that the service is down before typing anything. */}
      <HealthStatus />
      <PublicFlow />
    </>
  );
}
