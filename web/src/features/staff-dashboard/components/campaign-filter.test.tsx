// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../../../../rules/campaigns';
import { FiltersForm } from './filters-form';
import type { ListFilters } from '../utils/list-params';
import { staffEn } from '../../../i18n/staff-en';
import { staffTa } from '../../../i18n/staff-ta';
import { campaignLabel, getCampaigns } from '../../../lib/staff-campaigns';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';

// Issue 19: the campaign filter's names come from GET /api/admin/campaigns (built
// elsewhere: these answers are mocked as its contract, rules/campaigns.ts, says).

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const campaign = (id: string, en: string, ta: string): Campaign => ({
  id,
  code: 'abcdef',
  name_en: en,
  name_ta: ta,
  kind: 'college',
  starts_on: '2026-11-01',
  ends_on: '2026-12-31',
  status: 'active',
  created_at: '2026-11-01T00:00:00.000Z',
});
const campaigns = [campaign('c1', 'Loyola College', 'லயோலா கல்லூரி'), campaign('c2', 'Madurai rally', 'மதுரை பேரணி')];

describe('the campaigns fetcher', () => {
  it('reads the list with the staff token and checks it', async () => {
    const api = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { items: campaigns })));
    vi.stubGlobal('fetch', api);
    expect(await getCampaigns(() => Promise.resolve('id-token'))).toEqual(campaigns);
    expect(api.mock.calls[0]![0]).toBe('/api/admin/campaigns');
    expect(new Headers(api.mock.calls[0]![1]?.headers).get('authorization')).toBe('Bearer id-token');
  });

  it('refuses an answer that is not the contract', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, { items: [{ id: 'c1' }] })));
    await expect(getCampaigns(() => Promise.resolve('id-token'))).rejects.toThrow();
  });

  it('names a campaign in the screen language, and by its id when unknown', () => {
    expect(campaignLabel(campaigns, 'c1', 'en')).toBe('Loyola College');
    expect(campaignLabel(campaigns, 'c1', 'ta')).toBe('லயோலா கல்லூரி');
    expect(campaignLabel(campaigns, 'gone', 'ta')).toBe('gone');
  });
});

const session: StaffSession = {
  email: 'admin@example.com',
  role: 'admin',
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
};

describe.each([
  ['en', staffEn, 'Madurai rally'],
  ['ta', staffTa, 'மதுரை பேரணி'],
] as const)("the dashboard's campaign filter (%s)", (language, texts, name) => {
  const renderForm = (filters: ListFilters = {}) => {
    const onApply = vi.fn<(filters: ListFilters) => void>();
    renderWithI18n(
      <StaffSessionContext.Provider value={session}>
        <FiltersForm filters={filters} onApply={onApply} campaigns={campaigns} />
      </StaffSessionContext.Provider>,
      language,
    );
    const select = screen.getByLabelText<HTMLSelectElement>(texts.filters.campaign);
    const apply = () => userEvent.click(screen.getByRole('button', { name: texts.filters.apply }));
    return { onApply, select, apply };
  };

  it('offers every campaign by name and applies the one chosen', async () => {
    const { onApply, select, apply } = renderForm();
    expect([...select.options].map((o) => o.text)).toEqual([
      texts.filters.allCampaigns,
      ...campaigns.map((c) => (language === 'ta' ? c.name_ta : c.name_en)),
    ]);
    await userEvent.selectOptions(select, name);
    await apply();
    expect(onApply).toHaveBeenLastCalledWith({ campaign: 'c2' });
  });

  it('says a search cannot be limited to a campaign, and sends nothing', async () => {
    const { onApply, select, apply } = renderForm({ campaign: 'c1' });
    expect(select.value).toBe('c1');
    await userEvent.type(screen.getByLabelText(texts.filters.search), 'kavya');
    await apply();
    expect(screen.getByRole('alert').textContent).toBe(texts.filters.campaignNotWithSearch);
    expect(onApply).not.toHaveBeenCalled();
  });

  it("keeps a shared link's campaign the list does not hold", () => {
    const { select } = renderForm({ campaign: 'old-campaign' });
    expect(select.value).toBe('old-campaign');
  });
});
