import { useQuery } from '@tanstack/react-query';
import { type Campaign, campaignListSchema } from '../../../rules/campaigns';
import { staffKeys } from './staff-queries';
import { staffRequest, useStaffSession } from './staff-session';

// The campaigns' names for the dashboard's and the Reports page's campaign filter and the
// "Top campaigns" chart (issue 19): GET /api/admin/campaigns → { items: Campaign[] }.
// Shared here because both features show them and features do not import each other.

export function getCampaigns(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<Campaign[]> {
  return staffRequest(getIdToken, '/admin/campaigns', { schema: campaignListSchema, signal }).then((r) => r.items);
}

/**
 * The campaigns, oldest first as the API lists them; empty while loading or when they
 * cannot be read (the filter then offers only "All campaigns", the chart shows codes).
 */
export function useCampaigns(): readonly Campaign[] {
  const { getIdToken } = useStaffSession();
  const query = useQuery({
    // The Campaigns page reads the same entry (a change there makes it stale).
    queryKey: staffKeys.campaigns,
    queryFn: ({ signal }) => getCampaigns(getIdToken, signal),
    // Names change rarely: kept while the staff area is open.
    staleTime: 5 * 60_000,
    gcTime: 5 * 60_000,
  });
  return query.data ?? [];
}

/** A campaign's name in the screen's language; its id when the list does not have it (yet). */
export function campaignLabel(campaigns: readonly Campaign[], id: string, language: string): string {
  const campaign = campaigns.find((c) => c.id === id);
  if (!campaign) return id;
  return language === 'ta' ? campaign.name_ta : campaign.name_en;
}
