// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { GetMyCard } from './get-my-card';

// "Get my card" on the already-registered screen: the verification in the body, the card
// page on success, NOT_A_MEMBER in the visitor's language otherwise.

const verification = { token: 'verification-token', expiresAt: '2026-11-27T12:00:00.000Z', mobile: '9876543210' };
const api = vi.fn<typeof fetch>();
const assign = vi.fn<(url: string | URL) => void>();

beforeEach(() => {
  vi.stubGlobal('fetch', api);
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  api.mockReset();
  assign.mockReset();
});

describe('Get my card', () => {
  it('posts the verification and opens the card page at the link it answers', async () => {
    const link = `abcdefghjkmnpqrs.${'A'.repeat(22)}`;
    api.mockResolvedValue(jsonResponse(200, { link }));
    renderWithI18n(<GetMyCard verification={verification} />);
    await userEvent.click(screen.getByRole('button', { name: 'Get my card' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(`/card#${link}`));
    const [url, init] = api.mock.calls[0]!;
    expect(url).toBe('/api/card/mine');
    expect(init?.body).toBe(JSON.stringify({ verificationToken: 'verification-token' }));
  });

  it('says NOT_A_MEMBER in Tamil', async () => {
    api.mockResolvedValue(jsonResponse(404, { error: { code: 'NOT_A_MEMBER', message: 'x' } }));
    renderWithI18n(<GetMyCard verification={verification} />, 'ta');
    await userEvent.click(screen.getByRole('button', { name: 'எனது அட்டையைப் பெறவும்' }));
    expect((await screen.findByRole('alert')).textContent).toContain('இந்த எண்ணுக்கு இன்னும் உறுப்பினர் அட்டை இல்லை');
    expect(assign).not.toHaveBeenCalled();
  });
});
