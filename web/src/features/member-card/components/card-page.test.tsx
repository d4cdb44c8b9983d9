// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CardView, cardPageHref } from '../../../../../rules/member-card';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { CardPage } from './card-page';

// The card page with fetch mocked at the boundary: the link after # goes in the body of
// POST /api/card; the card shows in the page's language and changes with it at once.

const link = `abcdefghjkmnpqrs.${'A'.repeat(22)}`;
const view: CardView = {
  name: 'Selvan Raman',
  memberNumber: 'TNSW-2026-000123',
  district: 'salem',
  // Attur (Salem): a name Dindigul's Athoor shares in Tamil.
  constituency: 82,
  memberSince: '2026-11-20',
  issuedOn: '2026-11-21',
  token: 'claims.signature',
};

const api = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', api));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  api.mockReset();
  window.history.replaceState(null, '', '/');
});

function open(at = link, language: 'en' | 'ta' = 'en') {
  window.history.replaceState(null, '', cardPageHref(at));
  return renderWithI18n(<CardPage />, language);
}

describe('the card page', () => {
  it('asks for the card by the link after #, in the body, and shows it with the verification QR code', async () => {
    api.mockResolvedValue(jsonResponse(200, view));
    open();
    const card = await screen.findByTestId('member-card');
    const [url, init] = api.mock.calls[0]!;
    expect(url).toBe('/api/card');
    expect(init?.body).toBe(JSON.stringify({ link }));
    const text = card.textContent ?? '';
    for (const expected of [
      "Students' Wing",
      'Selvan Raman',
      'Member number',
      'TNSW-2026-000123',
      'Salem',
      'Member since',
      '20 November 2026',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Attur.*, Salem/);
    const qr = screen.getByRole('img', { name: 'QR code that checks this card' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('button', { name: 'Download image (PNG)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download PDF for phone' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download PDF to print (A4)' })).toBeTruthy();
  });

  it('changes everything at once with the language', async () => {
    api.mockResolvedValue(jsonResponse(200, view));
    const { i18n } = open();
    await screen.findByTestId('member-card');
    await act(() => i18n.changeLanguage('ta'));
    const text = screen.getByTestId('member-card').textContent ?? '';
    for (const expected of ['மாணவர் அணி', 'உறுப்பினர் எண்', 'சேலம்', '20 நவம்பர் 2026', 'உறுப்பினரான நாள்']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Member number');
    expect(screen.getByRole('button', { name: 'படமாகப் பதிவிறக்கவும் (PNG)' })).toBeTruthy();
  });

  it('says CARD_NOT_FOUND in the page’s language with a way back home', async () => {
    api.mockResolvedValue(jsonResponse(404, { error: { code: 'CARD_NOT_FOUND', message: 'x' } }));
    open(link, 'ta');
    expect((await screen.findByRole('alert')).textContent).toContain('இந்த அட்டை இணைப்பு இப்போது செல்லாது');
    expect(screen.getByRole('link', { name: 'முகப்புப் பக்கத்துக்குச் செல்லவும்' }).getAttribute('href')).toBe('/');
  });

  it('says the same for a malformed link, without a request', async () => {
    open('not-a-link');
    expect((await screen.findByRole('alert')).textContent).toContain('This card link is not valid any more');
    expect(api).not.toHaveBeenCalled();
  });

  it('offers to try again when the server cannot be reached', async () => {
    api.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    open();
    await screen.findByRole('alert');
    api.mockResolvedValue(jsonResponse(200, view));
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByTestId('member-card')).toBeTruthy();
  });
});
