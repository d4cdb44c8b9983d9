// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffMember } from '../../../../../rules/staff-admin';
import type { Language } from '../../../i18n/language';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { StaffPage } from './staff-page';

// The Staff page against a stand-in API: the list shows what the server said, in either
// language; an invitation sends what the form holds (districts by id, named in the
// page's language) and shows the server's field codes; a reset asks first.

const api = vi.fn<typeof fetch>();
const session: StaffSession = {
  email: 'admin@example.org',
  role: 'admin',
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
};

const admin: StaffMember = {
  sub: 'sub-admin',
  email: 'admin@example.org',
  role: 'admin',
  districts: [],
  enabled: true,
  status: 'CONFIRMED',
  mfa: true,
  lastSignIn: '2026-11-24T08:32:00.000Z',
};
const coordinator: StaffMember = {
  sub: 'sub-coord',
  email: 'coordinator.with.a.rather.long.address@example.org',
  role: 'coordinator',
  districts: ['chennai', 'tiruvallur'],
  enabled: false,
  status: 'FORCE_CHANGE_PASSWORD',
  mfa: false,
  lastSignIn: null,
};

function renderPage(language: Language = 'en') {
  return renderWithI18n(
    <StaffQueryProvider>
      <StaffSessionContext.Provider value={session}>
        <StaffPage />
      </StaffSessionContext.Provider>
    </StaffQueryProvider>,
    language,
  );
}

/** Answers the list, and each POST by `answers` in turn. */
function serve(...answers: Response[]) {
  api.mockImplementation((_input, init) => {
    if ((init?.method ?? 'GET') === 'GET') return Promise.resolve(jsonResponse(200, { items: [admin, coordinator] }));
    return Promise.resolve(answers.shift() ?? jsonResponse(500, {}));
  });
}

const posted = () =>
  api.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([input, init]) => ({ url: input as string, body: JSON.parse(init?.body as string) as unknown }));

beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
});

describe('the Staff page', () => {
  it('lists each member with role, districts, status, authenticator and last sign-in', async () => {
    serve();
    renderPage();
    const cards = await screen.findAllByTestId('staff-member');
    expect(cards).toHaveLength(2);
    const [mine, theirs] = cards as [HTMLElement, HTMLElement];
    expect(mine.textContent).toContain('Every district');
    expect(mine.textContent).toContain('Set up');
    expect(mine.textContent).toContain('24 Nov 2026');
    // No actions on yourself.
    expect(within(mine).queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(theirs.textContent).toContain('Coordinator');
    expect(theirs.textContent).toContain('Chennai, Tiruvallur');
    expect(theirs.textContent).toContain('Disabled');
    expect(theirs.textContent).toContain('Not set up');
    expect(theirs.textContent).toContain('Not known');
    expect(within(theirs).getByRole('button', { name: 'Enable' })).toBeTruthy();
  });

  it('shows the districts and roles in Tamil on a Tamil page', async () => {
    serve();
    renderPage('ta');
    const cards = await screen.findAllByTestId('staff-member');
    expect(cards[1]!.textContent).toContain('சென்னை');
    expect(cards[1]!.textContent).toContain('ஒருங்கிணைப்பாளர்');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('பணியாளர்கள்');
    // The invitation's districts are named in Tamil too.
    expect(screen.getByRole('checkbox', { name: 'சென்னை' })).toBeTruthy();
  });

  it('will not send a coordinator without a district, then invites one and shows the local password', async () => {
    const user = userEvent.setup();
    serve(
      jsonResponse(201, {
        member: { ...coordinator, sub: 'new', email: 'new@example.org' },
        temporaryPassword: 'Temp-Password-1!',
      }),
    );
    renderPage();
    await screen.findAllByTestId('staff-member');
    await user.type(screen.getByLabelText('Email'), 'new@example.org');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(screen.getByText('Choose at least one district for a coordinator.')).toBeTruthy();
    expect(posted()).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'Madurai' }));
    await user.click(screen.getByRole('checkbox', { name: 'Chennai' }));
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByTestId('staff-notice')).textContent).toBe(
      'Invited new@example.org. Temporary password (shown once): Temp-Password-1!',
    );
    expect(posted()).toEqual([
      {
        url: '/api/admin/staff',
        body: { email: 'new@example.org', role: 'coordinator', districts: ['madurai', 'chennai'] },
      },
    ]);
  });

  it("shows the server's field code next to its field", async () => {
    const user = userEvent.setup();
    serve(jsonResponse(400, { error: { code: 'VALIDATION_FAILED', message: 'x', fields: { email: 'TAKEN' } } }));
    renderPage();
    await screen.findAllByTestId('staff-member');
    await user.type(screen.getByLabelText('Email'), 'admin@example.org');
    await user.selectOptions(screen.getAllByLabelText('Role')[0]!, 'viewer');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('This email already has an account.')).toBeTruthy();
  });

  it('asks before a reset, and sends it only when confirmed', async () => {
    const user = userEvent.setup();
    serve(jsonResponse(200, { member: { ...coordinator, sub: 'sub-coord-2' } }));
    renderPage();
    const cards = await screen.findAllByTestId('staff-member');
    await user.click(within(cards[1]!).getByRole('button', { name: 'Reset authenticator' }));
    const dialog = screen.getByTestId('reset-dialog');
    expect(dialog.textContent).toContain(`Reset the authenticator of ${coordinator.email}?`);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posted()).toEqual([]);

    await user.click(within(cards[1]!).getByRole('button', { name: 'Reset authenticator' }));
    await user.click(within(screen.getByTestId('reset-dialog')).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.queryByTestId('reset-dialog')).toBeNull());
    expect(posted()).toEqual([{ url: '/api/admin/staff/sub-coord/reset-mfa', body: {} }]);
    expect(screen.getByTestId('staff-notice').textContent).toContain('They get an e-mail with a temporary password.');
  });

  it('changes a role and districts', async () => {
    const user = userEvent.setup();
    serve(jsonResponse(200, { member: { ...coordinator, role: 'viewer', districts: [] } }));
    renderPage();
    const cards = await screen.findAllByTestId('staff-member');
    await user.click(within(cards[1]!).getByRole('button', { name: 'Change role' }));
    await user.selectOptions(within(cards[1]!).getByLabelText('Role'), 'viewer');
    await user.click(within(cards[1]!).getByRole('checkbox', { name: 'Tiruvallur' }));
    await user.click(within(cards[1]!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()).toEqual([
      { url: '/api/admin/staff/sub-coord/assign', body: { role: 'viewer', districts: ['chennai'] } },
    ]);
  });
});
