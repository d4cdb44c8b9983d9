import { GrievancesPage } from '../../features/staff-grievances/components/grievances-page';

// Its own lazy chunk: the Grievances page (issue 21).
export function GrievancesRoute() {
  return <GrievancesPage />;
}
