import { type Db } from '../lambdas/lib/db';
import { makeCampaignStore } from '../lambdas/adapters/campaigns';
import { type Campaign, campaignLink } from '../rules/campaigns';

// Demo campaigns of local mode (issue 19), with fixed ids and codes so that the README can
// name them: open `http://localhost:5173/?c=state2` and the application carries the
// statewide campaign. Written at every start when missing; never changed once there (a
// campaign paused or resumed in the staff area stays so across restarts).

const created_at = '2026-01-01T00:00:00.000Z';
export const demoCampaigns: readonly Campaign[] = [
  {
    id: '00000000-0000-4000-8000-00000000c001',
    code: 'state2',
    name_en: 'Statewide membership drive',
    name_ta: 'மாநில அளவிலான உறுப்பினர் சேர்க்கை',
    kind: 'online',
    starts_on: '2026-01-01',
    ends_on: '2099-12-31',
    status: 'active',
    created_at,
  },
  {
    id: '00000000-0000-4000-8000-00000000c002',
    code: 'chenna',
    name_en: 'Chennai colleges',
    name_ta: 'சென்னைக் கல்லூரிகள்',
    kind: 'college',
    district: 'Chennai',
    starts_on: '2026-01-01',
    ends_on: '2099-12-31',
    status: 'active',
    created_at: '2026-01-01T00:00:01.000Z',
  },
  {
    id: '00000000-0000-4000-8000-00000000c003',
    code: 'paused',
    name_en: 'Madurai rally (paused)',
    name_ta: 'மதுரைப் பேரணி (நிறுத்தப்பட்டது)',
    kind: 'event',
    district: 'Madurai',
    starts_on: '2026-01-01',
    ends_on: '2099-12-31',
    status: 'paused',
    created_at: '2026-01-01T00:00:02.000Z',
  },
];

/** Writes the demo campaigns that are missing (a campaign or code already there is left as it is). */
export async function seedDemoCampaigns(db: Db, tableName: string): Promise<void> {
  const store = makeCampaignStore(db, tableName);
  for (const campaign of demoCampaigns) {
    if (await store.get(campaign.id)) continue;
    await store.insert(campaign);
  }
}

/** The lines `npm start` prints: each demo campaign's link on the app's address. */
export function demoCampaignLines(appUrl: string): string[] {
  return demoCampaigns.map(
    (c) => `${campaignLink(appUrl, c.code)}   (${c.name_en}; ${c.district ?? 'statewide'}, ${c.status})`,
  );
}
