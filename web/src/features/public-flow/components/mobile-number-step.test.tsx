// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { MobileNumberStep } from './mobile-number-step';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const input = () => screen.getByLabelText<HTMLInputElement>('Mobile number');
const send = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send WhatsApp OTP' });

describe('mobile number entry', () => {
  it('is a numeric telephone field with national autocomplete', () => {
    renderWithI18n(<MobileNumberStep />);
    expect(input().type).toBe('tel');
    expect(input().inputMode).toBe('numeric');
    expect(input().getAttribute('autocomplete')).toBe('tel-national');
  });

  it('keeps digits only and cuts to 10', async () => {
    const user = userEvent.setup();
    renderWithI18n(<MobileNumberStep />);
    await user.type(input(), '98a7-6 54.3210999');
    expect(input().value).toBe('9876543210');
  });

  it('enables Send only for a valid Indian mobile number', async () => {
    const user = userEvent.setup();
    renderWithI18n(<MobileNumberStep />);
    expect(send().disabled).toBe(true);

    await user.type(input(), '987654321');
    expect(send().disabled).toBe(true);

    await user.type(input(), '0');
    expect(send().disabled).toBe(false);

    await user.clear(input());
    await user.type(input(), '5876543210'); // Indian mobiles start with 6-9
    expect(send().disabled).toBe(true);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please enter a valid 10-digit phone number')).toBeTruthy();
  });

  it('says a short number is invalid once the field is left, and links the message to the field', async () => {
    const user = userEvent.setup();
    renderWithI18n(<MobileNumberStep />);
    await user.type(input(), '98765');
    expect(input().getAttribute('aria-invalid')).toBe('false');
    await user.tab();
    expect(input().getAttribute('aria-invalid')).toBe('true');
    const describedBy = input().getAttribute('aria-describedby') ?? '';
    const message = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(message).toContain('Please enter a valid 10-digit phone number');
  });

  it('posts the number and shows the translated error the API answers with', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithI18n(<MobileNumberStep />, 'ta');

    await user.type(screen.getByLabelText('கைபேசி எண்'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' }));

    expect((await screen.findByRole('alert')).textContent).toBe('கண்டறியப்படவில்லை.');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/otp/request');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ phone: '9876543210' });
  });

  it('shows the sending state while the request is in flight', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderWithI18n(<MobileNumberStep />);

    await user.type(input(), '9876543210');
    await user.click(send());
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Sending...' });
    expect(busy.disabled).toBe(true);

    answer(jsonResponse(429, { error: { code: 'RATE_LIMITED', message: 'x', retryAfterSeconds: 60 } }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please try again later.');
    expect(send().disabled).toBe(false);
  });
});
