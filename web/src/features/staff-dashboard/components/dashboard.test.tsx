// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from '../../../i18n/use-translation';
import { createMemoryRouter, type InitialEntry, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApplicationRow } from '../../../../../rules/staff-api';
import { createTestI18n } from '../../../testing/i18n';
import { addStaffTranslations } from '../../../i18n/staff';
import { en } from '../../../i18n/en';
import { staffEn } from '../../../i18n/staff-en';
import { staffTa } from '../../../i18n/staff-ta';
import { ta } from '../../../i18n/ta';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffRole, type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse } from '../../../testing/render';
import { Dashboard } from './dashboard';

// The dashboard against a stubbed API: what it asks for follows the address bar, and the
// address bar follows the filters (so a link can be shared and Back works), all but the
// search term: names and numbers stay out of every URL (the history entry keeps them).

const rows: ApplicationRow[] = Array.from({ length: 3 }, (_, i) => ({
  id: `a${i}`,
  name: `Person ${i}`,
  phone_number: `9198765432${i}0`.slice(0, 12),
  email: `p${i}@example.org`,
  revenue_district: 'Madurai',
  application_status: 'pending',
  submitted_at: `2026-11-2${i}T04:30:00.000Z`,
}));

const api = vi.fn<typeof fetch>();
/** The bodies of the list requests (POST /api/admin/applications/search). */
const listed = () =>
  api.mock.calls
    .filter(([url]) => url === '/api/admin/applications/search')
    .map(([, init]) => JSON.parse(init?.body as string) as unknown);

function renderDashboard(
  role: StaffRole = 'admin',
  url: InitialEntry = '/admin',
  { districts = [], language = 'en' }: { districts?: string[]; language?: 'en' | 'ta' } = {},
) {
  const i18n = createTestI18n(language);
  addStaffTranslations(i18n);
  const session: StaffSession = {
    email: 'admin@example.com',
    role,
    districts,
    getIdToken: () => Promise.resolve('id-token'),
    signOut: () => Promise.resolve(),
  };
  const router = createMemoryRouter([{ path: '/admin', element: <Dashboard /> }], { initialEntries: [url] });
  render(
    <I18nextProvider i18n={i18n}>
      <StaffQueryProvider>
        <StaffSessionContext.Provider value={session}>
          <RouterProvider router={router} />
        </StaffSessionContext.Provider>
      </StaffQueryProvider>
    </I18nextProvider>,
  );
  return router;
}

beforeEach(() => {
  api.mockImplementation((input, init) => {
    const url = new URL(input as string, 'http://localhost');
    if (url.pathname === '/api/admin/stats') {
      return Promise.resolve(jsonResponse(200, { total: 3, pending: 3, under_review: 0, approved: 0, rejected: 0 }));
    }
    const { filters } = JSON.parse(init?.body as string) as { filters: { q?: string } };
    const items = filters.q === 'nobody' ? [] : rows;
    return Promise.resolve(jsonResponse(200, { items, total: items.length }));
  });
  vi.stubGlobal('fetch', api);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
});

describe('dashboard', () => {
  it('lists the page with the ID token, the totals, and the pager', async () => {
    renderDashboard();
    expect(await screen.findByText('Person 0')).toBeTruthy();
    expect(screen.getByTestId('pager-text').textContent).toBe('Page 1 of 1 • 3 total');
    expect(within(screen.getByTestId('stat-total')).getByText('3')).toBeTruthy();
    expect(listed()).toContainEqual({ filters: {}, pageSize: 10 });
    expect(api.mock.calls.find(([url]) => url === '/api/admin/applications/search')?.[1]?.method).toBe('POST');
    expect(new Headers(api.mock.calls[0]![1]?.headers).get('authorization')).toBe('Bearer id-token');
  });

  it('puts applied filters in the address bar and asks the API for them; Back restores them', async () => {
    const user = userEvent.setup();
    const router = renderDashboard();
    await screen.findByText('Person 0');

    await user.type(screen.getByLabelText('Search'), 'kavya');
    await user.selectOptions(screen.getByLabelText('Status'), 'approved');
    await user.selectOptions(screen.getByLabelText('District'), 'Salem');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    expect(router.state.location.search).toBe('?status=approved&district=Salem');
    expect(router.state.location.state).toEqual({ q: 'kavya' });
    await vi.waitFor(() =>
      expect(listed()).toContainEqual({ filters: { q: 'kavya', status: 'approved', district: 'Salem' }, pageSize: 10 }),
    );

    await user.selectOptions(screen.getByLabelText('Rows per page'), '50');
    expect(router.state.location.search).toBe('?status=approved&district=Salem&size=50');

    await router.navigate(-1);
    await vi.waitFor(() => expect(router.state.location.search).toBe('?status=approved&district=Salem'));
    // Back restores the search too, from the history entry.
    expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe('kavya');
    // The page has re-rendered from the address (on a busy machine that takes a moment).
    await vi.waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('Rows per page').value).toBe('10'));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(router.state.location.search).toBe('');
    await vi.waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe(''));
  });

  it('reads the filters of a shared link into the form; a search term in a link is not one', async () => {
    renderDashboard('admin', '/admin?q=meena&status=rejected&from=2026-11-01&to=2026-11-20&size=20');
    await screen.findByText('Person 0');
    expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe('');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('rejected');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('01/11/2026');
    expect(screen.getByLabelText<HTMLInputElement>('To').value).toBe('20/11/2026');
    expect(screen.getByLabelText<HTMLSelectElement>('Rows per page').value).toBe('20');
    expect(listed()).toContainEqual({
      filters: { status: 'rejected', from: '2026-11-01', to: '2026-11-20' },
      pageSize: 20,
    });
  });

  it('refuses a From day after the To day', async () => {
    const user = userEvent.setup();
    const router = renderDashboard();
    await screen.findByText('Person 0');
    await user.type(screen.getByLabelText('From'), '20112026');
    await user.type(screen.getByLabelText('To'), '01112026');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe('The From date must be on or before the To date.');
    expect(router.state.location.search).toBe('');
  });

  it('gives admins row checkboxes and a bulk bar, viewers neither', async () => {
    const user = userEvent.setup();
    renderDashboard('admin');
    await screen.findByText('Person 0');
    expect(screen.queryByTestId('bulk-bar')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select the application of Person 1' }));
    expect(within(screen.getByTestId('bulk-bar')).getByText('1 application selected')).toBeTruthy();
    cleanup();

    renderDashboard('viewer');
    await screen.findByText('Person 0');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('shows a coordinator their districts, offers only those in the filter, and lets them review a row', async () => {
    const user = userEvent.setup();
    renderDashboard('coordinator', '/admin', { districts: ['chennai', 'tiruvallur'] });
    await screen.findByText('Person 0');
    expect(screen.getByTestId('staff-scope').textContent).toBe('Your districts: Chennai, Tiruvallur');
    const options = within(screen.getByRole('combobox', { name: 'District' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['All my districts', 'Chennai', 'Tiruvallur']);
    await user.click(screen.getByRole('checkbox', { name: 'Select the application of Person 1' }));
    expect(screen.getByTestId('bulk-bar')).toBeTruthy();
  });

  it('names the districts in Tamil on a Tamil screen, and says nothing of a scope to staff who see every district', async () => {
    renderDashboard('viewer', '/admin', { districts: ['chennai'], language: 'ta' });
    await screen.findByText('Person 0');
    expect(screen.getByTestId('staff-scope').textContent).toBe('உங்கள் மாவட்டங்கள்: சென்னை');
    cleanup();
    renderDashboard('admin');
    await screen.findByText('Person 0');
    expect(screen.queryByTestId('staff-scope')).toBeNull();
  });
});

// What the list says after a search (issue 18): why nothing matched, or that too much did.
describe('dashboard after a search', () => {
  it('shows the empty state; after a search, what a search matches (the start of a word, not its middle)', async () => {
    renderDashboard('admin', { pathname: '/admin', state: { q: 'nobody' } });
    expect((await screen.findByTestId('empty-state')).textContent).toBe(
      'No applications foundThere are no membership applications to display.' + staffEn.table.emptySearch,
    );
    cleanup();
    renderDashboard('admin', { pathname: '/admin', state: { q: 'nobody' } }, { language: 'ta' });
    expect((await screen.findByTestId('empty-state')).textContent).toBe(
      staffTa.table.emptyTitle + staffTa.table.emptyBody + staffTa.table.emptySearch,
    );
    cleanup();
    // No search: nothing about what a search matches.
    api.mockImplementation(() => Promise.resolve(jsonResponse(200, { items: [], total: 0 })));
    renderDashboard();
    expect((await screen.findByTestId('empty-state')).textContent).toBe(
      'No applications foundThere are no membership applications to display.',
    );
  });

  it.each(['en', 'ta'] as const)(
    'says a search matching too many is too broad, in the language of the screen, with no Retry (%s)',
    async (language) => {
      api.mockImplementation((input) =>
        Promise.resolve(
          input === '/api/admin/stats'
            ? jsonResponse(200, { total: 3, pending: 3, under_review: 0, approved: 0, rejected: 0 })
            : jsonResponse(422, { error: { code: 'SEARCH_TOO_BROAD', message: 'Too many applications match.' } }),
        ),
      );
      renderDashboard('admin', { pathname: '/admin', state: { q: 'a' } }, { language });
      const alert = await screen.findByTestId('search-too-broad');
      expect(alert.textContent).toBe((language === 'ta' ? ta : en).errors.SEARCH_TOO_BROAD);
      expect(alert.getAttribute('role')).toBe('alert');
      expect(
        screen.queryByRole('button', { name: language === 'ta' ? staffTa.table.retry : staffEn.table.retry }),
      ).toBeNull();
    },
  );
});
