// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { HealthStatus } from './health-status';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const status = () => screen.getByTestId('health-status');

describe('service status line', () => {
  it('shows nothing when /api/health answers ok', async () => {
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(jsonResponse(200, { status: 'ok', stage: 'test', database: 'ok', time: '2025-01-01T00:00:00Z' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithI18n(<HealthStatus />);
    expect(status().dataset.state).toBe('loading');
    await waitFor(() => expect(status().dataset.state).toBe('ok'));
    expect(status().textContent).toBe('');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/health');
  });

  it('says the service cannot be reached, in Tamil too, when the API fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(500, { error: { code: 'INTERNAL', message: 'x' } }))),
    );
    renderWithI18n(<HealthStatus />, 'ta');
    await waitFor(() => expect(status().dataset.state).toBe('error'));
    expect(status().textContent).toBe(
      'உறுப்பினர் சேர்க்கைச் சேவையை இப்போது அணுக இயலவில்லை. சில நிமிடங்கள் கழித்து மீண்டும் முயலவும்.',
    );
  });

  it('says so too when the answer is not a health body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { status: 'degraded' }))),
    );
    renderWithI18n(<HealthStatus />);
    await waitFor(() => expect(status().dataset.state).toBe('error'));
  });
});
