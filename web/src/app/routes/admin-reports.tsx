import { ReportsPage } from '../../features/staff-reports/components/reports-page';

// Its own lazy chunk: the reports (and their charts, nivo) load only when opened.
export function ReportsRoute() {
  return <ReportsPage />;
}
