import { HealthStatus } from '../../features/public-flow/components/health-status';
import { MembershipIntro } from '../../features/public-flow/components/membership-intro';
import { MobileNumberStep } from '../../features/public-flow/components/mobile-number-step';

export function LandingRoute() {
  return (
    <>
      <article className="card">
        <MembershipIntro />
        <div className="card-body">
          <MobileNumberStep />
        </div>
      </article>
      <HealthStatus />
    </>
  );
}
