// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../../../../rules/campaigns';
import { istDay } from '../../../../../rules/ist';
import type { Language } from '../../../i18n/language';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { CampaignsPage } from './campaigns-page';

// The Campaigns page against a stand-in API: the list in either language with each
// campaign's phase by today's IST day; a new campaign checked by the shared schema, then
// sent, with the server's field codes shown; pause and resume; a viewer sees no controls.

const api = vi.fn<typeof fetch>();
const sessionOf = (role: StaffSession['role'], districts: string[] = []): StaffSession => ({
  email: `${role}@example.org`,
  role,
  districts,
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
});

const shift = (days: number) => istDay(new Date(Date.now() + days * 86_400_000));
const base = { kind: 'college', created_at: '2026-11-01T10:00:00.000Z' } as const;
const live: Campaign = {
  ...base,
  id: 'c1',
  code: 'abc234',
  name_en: 'Loyola College drive',
  name_ta: 'லயோலா கல்லூரி பரப்புரை',
  district: 'Chennai',
  constituency: 'Egmore',
  starts_on: shift(-3),
  ends_on: shift(3),
  status: 'active',
};
const paused: Campaign = {
  ...live,
  id: 'c2',
  code: 'pqr789',
  name_en: 'Rally',
  name_ta: 'பேரணி',
  kind: 'event',
  status: 'paused',
  district: undefined,
  constituency: undefined,
};
const ended: Campaign = {
  ...live,
  id: 'c3',
  code: 'xyz456',
  name_en: 'Old drive',
  name_ta: 'பழைய பரப்புரை',
  starts_on: shift(-30),
  ends_on: shift(-1),
};
const later: Campaign = {
  ...live,
  id: 'c4',
  code: 'mnp345',
  name_en: 'Next month',
  name_ta: 'அடுத்த மாதம்',
  starts_on: shift(20),
  ends_on: shift(40),
};

function renderPage(session: StaffSession = sessionOf('admin'), language: Language = 'en') {
  return renderWithI18n(
    <StaffQueryProvider>
      <StaffSessionContext.Provider value={session}>
        <CampaignsPage />
      </StaffSessionContext.Provider>
    </StaffQueryProvider>,
    language,
  );
}

/** Answers the list, and each change by `answers` in turn. */
function serve(...answers: Response[]) {
  api.mockImplementation((_input, init) => {
    if ((init?.method ?? 'GET') === 'GET')
      return Promise.resolve(jsonResponse(200, { items: [live, paused, ended, later] }));
    return Promise.resolve(answers.shift() ?? jsonResponse(500, {}));
  });
}

const sent = (method: string) =>
  api.mock.calls
    .filter(([, init]) => init?.method === method)
    .map(([input, init]) => ({ url: input as string, body: JSON.parse(init?.body as string) as unknown }));
const lists = () => api.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET').length;

beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
});

describe('the Campaigns list', () => {
  it('lists each campaign with kind, place, dates, code, phase, link and QR code', async () => {
    serve();
    renderPage();
    const card = await screen.findByTestId('campaign-abc234');
    expect(within(card).getByRole('heading', { name: 'Loyola College drive' })).toBeTruthy();
    expect(card.textContent).toContain('College');
    expect(card.textContent).toContain('Egmore, Chennai');
    expect(card.textContent).toContain('Active');
    expect(within(card).getByTestId('campaign-link').textContent).toBe(`${window.location.origin}/?c=abc234`);
    expect(await within(card).findByRole('img', { name: 'QR code for Loyola College drive' })).toBeTruthy();
    expect(screen.getByTestId('campaign-pqr789').textContent).toContain('Paused');
    expect(screen.getByTestId('campaign-pqr789').textContent).toContain('All of Tamil Nadu');
    expect(screen.getByTestId('campaign-xyz456').textContent).toContain('Ended');
    expect(screen.getByTestId('campaign-mnp345').textContent).toContain('Not started');
    // An ended campaign cannot be paused or resumed.
    expect(within(screen.getByTestId('campaign-xyz456')).queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it('shows names, places and phases in Tamil on a Tamil page', async () => {
    serve();
    renderPage(sessionOf('admin'), 'ta');
    const card = await screen.findByTestId('campaign-abc234');
    expect(within(card).getByRole('heading', { name: 'லயோலா கல்லூரி பரப்புரை' })).toBeTruthy();
    expect(card.textContent).toContain('சென்னை');
    expect(card.textContent).toContain('செயலில்');
    expect(screen.getByTestId('campaign-pqr789').textContent).toContain('நிறுத்திவைக்கப்பட்டது');
  });
});

describe('the new campaign form', () => {
  it('checks the form with the shared schema before sending anything', async () => {
    serve();
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('campaign-abc234');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    expect(await screen.findByText('Enter the name in English.')).toBeTruthy();
    expect(screen.getByText('Enter the name in Tamil.')).toBeTruthy();
    expect(screen.getByText('Choose a kind.')).toBeTruthy();
    expect(screen.getByText('Enter the first day.')).toBeTruthy();
    await user.type(screen.getByLabelText('Name in English'), 'Drive');
    await user.type(screen.getByLabelText('Name in Tamil'), 'பரப்புரை');
    await user.selectOptions(screen.getByLabelText('Kind'), 'event');
    await user.type(screen.getByLabelText('First day'), '10/12/2026');
    await user.type(screen.getByLabelText('Last day'), '01/12/2026');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    expect(await screen.findByText('The last day is before the first day.')).toBeTruthy();
    expect(sent('POST')).toEqual([]);
  });

  it('sends a new campaign, shows its code and reads the list again', async () => {
    const created: Campaign = {
      ...later,
      id: 'c9',
      code: 'new234',
      name_en: 'Anna University',
      name_ta: 'அண்ணா பல்கலைக்கழகம்',
    };
    serve(jsonResponse(201, created));
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('campaign-abc234');
    await user.type(screen.getByLabelText('Name in English'), 'Anna University');
    await user.type(screen.getByLabelText('Name in Tamil'), 'அண்ணா பல்கலைக்கழகம்');
    await user.selectOptions(screen.getByLabelText('Kind'), 'college');
    await user.selectOptions(screen.getByLabelText('District (optional)'), 'Chennai');
    await user.selectOptions(screen.getByLabelText('Assembly constituency (optional)'), 'Egmore');
    await user.type(screen.getByLabelText('First day'), '01/12/2026');
    await user.type(screen.getByLabelText('Last day'), '31/12/2026');
    const before = lists();
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    expect((await screen.findByTestId('campaign-notice')).textContent).toBe(
      'The campaign “Anna University” was created. Its code is new234.',
    );
    expect(sent('POST')).toEqual([
      {
        url: '/api/admin/campaigns',
        body: {
          name_en: 'Anna University',
          name_ta: 'அண்ணா பல்கலைக்கழகம்',
          kind: 'college',
          district: 'Chennai',
          constituency: 'Egmore',
          starts_on: '2026-12-01',
          ends_on: '2026-12-31',
        },
      },
    ]);
    await waitFor(() => expect(lists()).toBeGreaterThan(before));
  });

  it("shows the server's field codes in the page's language", async () => {
    serve(
      jsonResponse(400, {
        error: { code: 'VALIDATION_FAILED', message: 'Invalid', fields: { name_ta: 'INVALID_CHARACTERS' } },
      }),
    );
    const user = userEvent.setup();
    renderPage(sessionOf('admin'), 'ta');
    await screen.findByTestId('campaign-abc234');
    await user.type(screen.getByLabelText('ஆங்கிலத்தில் பெயர்'), 'Drive');
    await user.type(screen.getByLabelText('தமிழில் பெயர்'), 'பரப்புரை');
    await user.selectOptions(screen.getByLabelText('வகை'), 'online');
    await user.type(screen.getByLabelText('முதல் நாள்'), '01/12/2026');
    await user.type(screen.getByLabelText('கடைசி நாள்'), '02/12/2026');
    await user.click(screen.getByRole('button', { name: 'பரப்புரையை உருவாக்கு' }));
    expect(await screen.findByText('எழுத்துகள், எண்கள், வழக்கமான நிறுத்தக்குறிகள் மட்டும் பயன்படுத்தவும்.')).toBeTruthy();
  });

  it('offers a coordinator only their districts, and needs one', async () => {
    serve();
    const user = userEvent.setup();
    renderPage(sessionOf('coordinator', ['chennai', 'tiruvallur']));
    await screen.findByTestId('campaign-abc234');
    const district = screen.getByLabelText('District');
    expect(
      within(district)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['—', 'Chennai', 'Tiruvallur']);
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    expect(await screen.findByText('Choose one of your districts.')).toBeTruthy();
  });
});

describe('pause, resume, copy and roles', () => {
  it('pauses and resumes, then reads the list again', async () => {
    serve(jsonResponse(200, { ...live, status: 'paused' }), jsonResponse(200, { ...paused, status: 'active' }));
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByTestId('campaign-abc234')).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(sent('PATCH')).toHaveLength(1));
    await user.click(within(screen.getByTestId('campaign-pqr789')).getByRole('button', { name: 'Resume' }));
    await waitFor(() =>
      expect(sent('PATCH')).toEqual([
        { url: '/api/admin/campaigns/c1', body: { status: 'paused' } },
        { url: '/api/admin/campaigns/c2', body: { status: 'active' } },
      ]),
    );
    await waitFor(() => expect(lists()).toBeGreaterThanOrEqual(3));
  });

  it('says when a pause fails', async () => {
    serve(jsonResponse(403, { error: { code: 'FORBIDDEN', message: 'no' } }));
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByTestId('campaign-abc234');
    await user.click(within(card).getByRole('button', { name: 'Pause' }));
    expect(await within(card).findByText('The change could not be made.')).toBeTruthy();
  });

  it('copies the link', async () => {
    serve();
    const user = userEvent.setup();
    renderPage();
    const card = await screen.findByTestId('campaign-abc234');
    await user.click(within(card).getByRole('button', { name: 'Copy link' }));
    expect(await within(card).findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/?c=abc234`);
  });

  it('shows a viewer the list, the links and the codes, but no form and no pause', async () => {
    serve();
    renderPage(sessionOf('viewer'));
    const card = await screen.findByTestId('campaign-abc234');
    expect(screen.queryByRole('button', { name: 'Create campaign' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(await within(card).findByRole('button', { name: 'A4 poster (PDF)' })).toBeTruthy();
  });
});
