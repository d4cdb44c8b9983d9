// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffGrievance } from '../../../../../rules/grievances';
import type { Language } from '../../../i18n/language';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { GrievancesPage } from './grievances-page';

// The Grievances page (issue 21) against a stand-in API: each ticket with its due date and
// days left (overdue marked), its text and where it came from; the answer checked before it
// is sent, the server's refusal shown; the closing after a confirmation; a viewer sees no
// controls (the server refuses them anyway).

const api = vi.fn<typeof fetch>();
const sessionOf = (role: StaffSession['role']): StaffSession => ({
  email: `${role}@example.org`,
  role,
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
});
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const soon: StaffGrievance = {
  id: 'k7qm2xrtabcdefgh',
  reference: 'K7QM-2XRT',
  text: 'My district is shown wrong.',
  language: 'en',
  via: 'verified',
  phone: '91XXXXXX3210',
  applicationId: 'app-1',
  district: 'Chennai',
  status: 'open',
  openedAt: inDays(-85),
  dueAt: inDays(5),
};
const overdue: StaffGrievance = {
  ...soon,
  id: 'abcdefghjkmnpqrs',
  reference: 'ABCD-EFGH',
  text: 'என் தரவை அழிக்கவும்.',
  language: 'ta',
  via: 'contact',
  applicationId: undefined,
  district: undefined,
  dueAt: inDays(-3),
};

function renderPage(session: StaffSession = sessionOf('admin'), language: Language = 'en') {
  return renderWithI18n(
    <StaffQueryProvider>
      <StaffSessionContext.Provider value={session}>
        <GrievancesPage />
      </StaffSessionContext.Provider>
    </StaffQueryProvider>,
    language,
  );
}

/** Answers the list, and each change by `answers` in turn. */
function serve(...answers: Response[]) {
  api.mockImplementation((_input, init) => {
    if ((init?.method ?? 'GET') === 'GET') return Promise.resolve(jsonResponse(200, { items: [overdue, soon] }));
    return Promise.resolve(answers.shift() ?? jsonResponse(500, {}));
  });
}
const posts = () =>
  api.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([input, init]) => ({ url: input as string, body: JSON.parse(init?.body as string) as unknown }));

beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
});

describe('the Grievances list', () => {
  it('shows each ticket with its days left, overdue marked, its text and where it came from', async () => {
    serve();
    renderPage();
    const first = await screen.findByTestId('grievance-K7QM-2XRT');
    expect(within(first).getByTestId('grievance-days').textContent).toBe('5 days left');
    expect(first.textContent).toContain('My district is shown wrong.');
    expect(first.textContent).toContain('91XXXXXX3210, verified with a code');
    expect(first.textContent).toContain('app-1');
    const late = screen.getByTestId('grievance-ABCD-EFGH');
    const days = within(late).getByTestId('grievance-days');
    expect(days.textContent).toBe('Overdue by 3 days');
    expect(days.className).toContain('grievance-due-overdue');
    expect(late.textContent).toContain('given on the form (not verified)');
  });

  it('says it all in Tamil on a Tamil page', async () => {
    serve();
    renderPage(sessionOf('coordinator'), 'ta');
    const late = await screen.findByTestId('grievance-ABCD-EFGH');
    expect(within(late).getByTestId('grievance-days').textContent).toBe('கடைசி நாள் கடந்து 3 நாட்கள்');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('குறைகள்');
  });

  it('gives a viewer no controls', async () => {
    serve();
    renderPage(sessionOf('viewer'));
    const card = await screen.findByTestId('grievance-K7QM-2XRT');
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(card).queryByRole('textbox')).toBeNull();
  });
});

describe('answering and closing', () => {
  it('checks the answer before sending it, then sends it and says so', async () => {
    serve(jsonResponse(200, { grievance: { ...soon, status: 'answered', answer: 'Fixed.' } }));
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByTestId('grievance-K7QM-2XRT');
    await user.click(within(card).getByRole('button', { name: 'Send answer' }));
    expect(await within(card).findByText('Write the answer.')).toBeTruthy();
    expect(posts()).toEqual([]);
    await user.type(within(card).getByLabelText('Answer to send'), 'We have corrected it.');
    await user.click(within(card).getByRole('button', { name: 'Send answer' }));
    expect((await screen.findByTestId('grievance-notice')).textContent).toBe(
      'The answer to K7QM-2XRT is saved and on its way.',
    );
    expect(posts()).toEqual([
      { url: '/api/admin/grievances/k7qm2xrtabcdefgh/answer', body: { answer: 'We have corrected it.' } },
    ]);
  });

  it('shows the server’s refusal of an answer in words', async () => {
    serve(jsonResponse(409, { error: { code: 'GRIEVANCE_NOT_OPEN', message: 'x' } }));
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByTestId('grievance-K7QM-2XRT');
    await user.type(within(card).getByLabelText('Answer to send'), 'Late.');
    await user.click(within(card).getByRole('button', { name: 'Send answer' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'This grievance has been answered or closed already.',
    );
  });

  it('closes a ticket only after a confirmation', async () => {
    serve(jsonResponse(200, { grievance: { ...overdue, status: 'closed' } }));
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByTestId('grievance-ABCD-EFGH');
    await user.click(within(card).getByRole('button', { name: 'Close' }));
    expect(posts()).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Close grievance' }));
    expect((await screen.findByTestId('grievance-notice')).textContent).toBe('Grievance ABCD-EFGH is closed.');
    expect(posts()).toEqual([{ url: '/api/admin/grievances/abcdefghjkmnpqrs/close', body: {} }]);
  });
});
