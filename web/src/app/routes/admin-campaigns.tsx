import { CampaignsPage } from '../../features/staff-campaigns/components/campaigns-page';

// Its own lazy chunk: the Campaigns page (issue 19). Its QR module and the poster's PDF
// code load later still, when a campaign's code or a poster is asked for.
export function CampaignsRoute() {
  return <CampaignsPage />;
}
