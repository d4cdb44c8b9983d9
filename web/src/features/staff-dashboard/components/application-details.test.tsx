// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApplicationDetail, ApplicationRow } from '../../../../../rules/staff-api';
import type { Language } from '../../../i18n/language';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { ApplicationDetails } from './application-details';

// The details row's decision notices as the API reports them: what went, by which
// channel, when (IST), and what the provider last said, in either language.

const row: ApplicationRow = {
  id: 'a1',
  name: 'Kavya Raman',
  phone_number: '919876543210',
  application_status: 'approved',
  submitted_at: '2026-11-21T04:30:00.000Z',
};

const api = vi.fn<typeof fetch>();
const session: StaffSession = {
  email: 'admin@example.com',
  role: 'viewer',
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
};

function renderDetails(detail: ApplicationDetail, language: Language) {
  api.mockResolvedValue(jsonResponse(200, detail));
  renderWithI18n(
    <StaffQueryProvider>
      <StaffSessionContext.Provider value={session}>
        <ApplicationDetails row={row} canReview={false} onErase={() => {}} />
      </StaffSessionContext.Provider>
    </StaffQueryProvider>,
    language,
  );
}

beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
});

const approvedByWhatsApp: ApplicationDetail = {
  application: row,
  audit: [],
  // 08:32 UTC is 14:02 IST.
  notices: [{ decision: 'approved', channel: 'whatsapp', sentAt: '2026-11-24T08:32:00.000Z', status: 'delivered' }],
};

describe('decision notices in the details row', () => {
  it('says what went, by which channel, when and its delivery status, in English', async () => {
    renderDetails(approvedByWhatsApp, 'en');
    const line = await screen.findByText(/^Decision notice: approved, by WhatsApp, /);
    expect(line.textContent).toBe('Decision notice: approved, by WhatsApp, 24 Nov 2026, 2:02 pm, delivered');
  });

  it('says the same in Tamil, with a failed SMS’s code', async () => {
    renderDetails(
      {
        ...approvedByWhatsApp,
        notices: [
          {
            decision: 'rejected',
            channel: 'sms',
            sentAt: '2026-11-24T08:32:00.000Z',
            status: 'failed',
            errorCode: 'TEXT_BLOCKED',
          },
        ],
      },
      'ta',
    );
    const line = await screen.findByText(/^முடிவு அறிவிப்பு: நிராகரிக்கப்பட்டது, .*SMS.* வழியாக, /);
    expect(line.textContent).toMatch(/24 .*2026, 2:02 PM, தோல்வியடைந்தது \(TEXT_BLOCKED\)$/);
  });

  it('shows no notice line when none went', async () => {
    renderDetails({ ...approvedByWhatsApp, notices: [] }, 'en');
    // Loaded: the (empty) audit trail shows.
    await screen.findByText('No changes yet.');
    expect(screen.queryByTestId('decision-notices')).toBeNull();
  });
});

describe('a status change to the status it already has', () => {
  it.each([
    ['en', 'The status is already “Approved”: nothing changed.'],
    ['ta', 'நிலை ஏற்கெனவே “ஏற்கப்பட்டது”: எதுவும் மாற்றப்படவில்லை.'],
  ] as const)('says nothing changed and reloads nothing (%s)', async (language, message) => {
    api.mockImplementation((input) =>
      Promise.resolve(
        (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).endsWith(
          '/admin/applications/status',
        )
          ? jsonResponse(200, { changed: [], unchanged: ['a1'], notFound: [] })
          : jsonResponse(200, approvedByWhatsApp),
      ),
    );
    renderWithI18n(
      <StaffQueryProvider>
        <StaffSessionContext.Provider value={{ ...session, role: 'admin' }}>
          <ApplicationDetails row={row} canReview onErase={() => {}} />
        </StaffSessionContext.Provider>
      </StaffQueryProvider>,
      language,
    );
    const apply = await screen.findByRole('button', { name: language === 'en' ? 'Apply' : 'பயன்படுத்து' });
    await userEvent.setup().click(apply);
    expect((await screen.findByText(message)).className).not.toContain('alert-success');
    // Nothing reloaded: the application was read once, when the row opened.
    expect(api.mock.calls.filter(([input]) => input === '/api/admin/applications/a1')).toHaveLength(1);
  });
});

describe('the member number (issue 20)', () => {
  it.each([
    ['en', 'Member number'],
    ['ta', 'உறுப்பினர் எண்'],
  ] as const)('shows it once the application has one, labelled (%s)', async (language, label) => {
    renderDetails({ ...approvedByWhatsApp, application: { ...row, member_number: 'TNSW-2026-000123' } }, language);
    const field = await screen.findByTestId('member-number');
    expect(field.textContent).toBe(`${label}TNSW-2026-000123`);
  });

  it('shows no such field before the first approval', async () => {
    renderDetails({ ...approvedByWhatsApp, application: { ...row, application_status: 'pending' } }, 'en');
    await screen.findByText('No changes yet.');
    expect(screen.queryByTestId('member-number')).toBeNull();
  });
});
