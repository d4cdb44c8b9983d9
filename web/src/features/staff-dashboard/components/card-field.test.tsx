// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffCard } from '../../../../../rules/member-card';
import type { ApplicationDetail, ApplicationRow } from '../../../../../rules/staff-api';
import type { Language } from '../../../i18n/language';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { type StaffSession, StaffSessionContext } from '../../../lib/staff-session';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { ApplicationDetails } from './application-details';

// The details row's card (issue 20): its state for everyone, Revoke and Reissue with a
// confirmation for admins; after a change the row is read again.

const row: ApplicationRow = {
  id: 'a1',
  name: 'Kavya Raman',
  phone_number: '919876543210',
  application_status: 'approved',
  submitted_at: '2026-11-21T04:30:00.000Z',
  member_number: 'TNSW-2026-000001',
};
const active: StaffCard = { state: 'active', issuedAt: '2026-11-21T05:00:00.000Z', valid: true, reissues: 0 };
const revoked: StaffCard = { ...active, state: 'revoked', valid: false, revokedAt: '2026-11-22T05:00:00.000Z' };
const detail = (card: StaffCard): ApplicationDetail => ({ application: row, audit: [], notices: [], card });

const api = vi.fn<typeof fetch>();
const session = (role: StaffSession['role']): StaffSession => ({
  email: 'admin@example.com',
  role,
  districts: [],
  getIdToken: () => Promise.resolve('id-token'),
  signOut: () => Promise.resolve(),
});

function renderRow(role: StaffSession['role'], language: Language = 'en') {
  renderWithI18n(
    <StaffQueryProvider>
      <StaffSessionContext.Provider value={session(role)}>
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

describe('the card in the details row', () => {
  it('shows the number and the card’s state to a viewer, with no buttons', async () => {
    api.mockResolvedValue(jsonResponse(200, detail(active)));
    renderRow('viewer');
    const field = await screen.findByTestId('member-card-state');
    expect(field.textContent).toContain('Active');
    expect(field.textContent).toContain('verifies as valid');
    expect(field.textContent).toContain('Issued 21 Nov 2026');
    expect(screen.getByTestId('member-number').textContent).toContain('TNSW-2026-000001');
    expect(screen.queryByRole('button', { name: 'Revoke card' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reissue card' })).toBeNull();
  });

  it('lets an admin revoke after confirming, then reads the row again', async () => {
    api.mockResolvedValueOnce(jsonResponse(200, detail(active)));
    renderRow('admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke card' }));
    expect(screen.getByText(/Its QR code will verify as not valid/)).toBeTruthy();
    expect(api).toHaveBeenCalledTimes(1);
    api.mockResolvedValueOnce(jsonResponse(200, { card: revoked }));
    api.mockResolvedValueOnce(jsonResponse(200, detail(revoked)));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Revoked')).toBeTruthy();
    const [url, init] = api.mock.calls[1]!;
    expect(url).toBe('/api/admin/applications/a1/card');
    expect(init?.body).toBe(JSON.stringify({ action: 'revoke' }));
    expect(screen.getByTestId('member-card-state').textContent).toContain('verifies as not valid');
    // A revoked card can be reissued, not revoked again.
    expect(screen.queryByRole('button', { name: 'Revoke card' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reissue card' })).toBeTruthy();
  });

  it('cancels without a request, in Tamil with plain-command buttons', async () => {
    api.mockResolvedValue(jsonResponse(200, detail({ ...active, reissues: 2 })));
    renderRow('admin', 'ta');
    const field = await screen.findByTestId('member-card-state');
    expect(field.textContent).toContain('2 முறை மீண்டும் வழங்கப்பட்டது');
    await userEvent.click(screen.getByRole('button', { name: 'அட்டையை மீண்டும் வழங்கு' }));
    await userEvent.click(screen.getByRole('button', { name: 'ரத்துசெய்' }));
    expect(screen.getByRole('button', { name: 'அட்டையைத் திரும்பப் பெறு' })).toBeTruthy();
    expect(api).toHaveBeenCalledTimes(1);
  });

  it('says why a change failed', async () => {
    api.mockResolvedValueOnce(jsonResponse(200, detail(active)));
    renderRow('admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Reissue card' }));
    api.mockResolvedValueOnce(jsonResponse(403, { error: { code: 'FORBIDDEN', message: 'no' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not change the card.');
  });
});
