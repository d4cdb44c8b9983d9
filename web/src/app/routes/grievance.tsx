import { GrievancePage } from '../../features/public-flow/components/grievance-page';

/** /grievance: a grievance with a contact number, or (with `#<link>`) its answer (lazy). */
export function GrievanceRoute() {
  return <GrievancePage />;
}
