import { type Campaign, type CampaignInput, campaignSchema, type CampaignStatus } from '../../../../../rules/campaigns';
import { staffRequest } from '../../../lib/staff-session';

// The Campaigns page's changes (issue 19; the list is web/src/lib/staff-campaigns.ts, shared with the filters). The server scopes the list to a coordinator's
// districts and refuses a viewer's changes whatever the page shows.

/** POST /api/admin/campaigns: a new campaign (201, with its code). */
export function createCampaign(getIdToken: () => Promise<string>, input: CampaignInput): Promise<Campaign> {
  return staffRequest(getIdToken, '/admin/campaigns', { method: 'POST', body: input, schema: campaignSchema });
}

/** PATCH /api/admin/campaigns/{id}: pause or resume. */
export function setCampaignStatus(
  getIdToken: () => Promise<string>,
  id: string,
  status: CampaignStatus,
): Promise<Campaign> {
  return staffRequest(getIdToken, `/admin/campaigns/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { status },
    schema: campaignSchema,
  });
}
