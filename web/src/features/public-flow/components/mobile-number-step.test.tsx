// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import { MobileNumberStep, mobileFromInput } from './mobile-number-step';

const execute = vi.fn<(siteKey: string, options: { action: string }) => Promise<string>>();

beforeEach(() => {
  execute.mockImplementation((_key, { action }) => Promise.resolve(`dev.${action}.0.9`));
  window.grecaptcha = { ready: (callback) => callback(), execute };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  execute.mockReset();
  delete window.grecaptcha;
});

/** The step with its number held by the test, as the flow holds it. */
function Harness({ onSent = () => undefined }: { onSent?: () => void }) {
  const [mobile, setMobile] = useState('');
  return <MobileNumberStep mobile={mobile} onMobileChange={setMobile} onSent={onSent} />;
}

const input = () => screen.getByLabelText<HTMLInputElement>('Mobile number');
const send = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send WhatsApp OTP' });

describe('mobile number entry', () => {
  it('is a numeric telephone field with national autocomplete', () => {
    renderWithI18n(<Harness />);
    expect(input().type).toBe('tel');
    expect(input().inputMode).toBe('numeric');
    expect(input().getAttribute('autocomplete')).toBe('tel-national');
  });

  it('keeps digits only and cuts to 10', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    await user.type(input(), '98a7-6 54.3210999');
    expect(input().value).toBe('9876543210');
  });

  it('keeps the number of a pasted +91 or 0-prefixed number', () => {
    expect(mobileFromInput('+91 98765 43210')).toBe('9876543210');
    expect(mobileFromInput('098765 43210')).toBe('9876543210');
    expect(mobileFromInput('98765432109999')).toBe('9876543210');
  });

  it("shows Google's reCAPTCHA notice, with its two links opening in a new tab, in either language", async () => {
    const { i18n } = renderWithI18n(<Harness />);
    const notice = () => screen.getByText((_, el) => el?.classList.contains('captcha-notice') ?? false);
    expect(notice().textContent).toBe(
      'This site is protected by reCAPTCHA and the Google Privacy Policy and Terms of Service apply.',
    );
    const link = (name: string) => screen.getByRole<HTMLAnchorElement>('link', { name });
    expect(link('Privacy Policy').href).toBe('https://policies.google.com/privacy');
    expect(link('Terms of Service').href).toBe('https://policies.google.com/terms');
    expect(link('Privacy Policy').target).toBe('_blank');

    await act(() => i18n.changeLanguage('ta'));
    expect(notice().textContent).toMatch(/^இந்தத் தளம் reCAPTCHA .*Google/);
    expect(link('தனியுரிமைக் கொள்கையும்').href).toBe('https://policies.google.com/privacy?hl=ta');
    expect(link('சேவை விதிமுறைகளும்').href).toBe('https://policies.google.com/terms?hl=ta');
  });

  it('offers the notice before the number is sent: one line under Send, opened over the step, the number kept', async () => {
    const user = userEvent.setup();
    const { i18n } = renderWithI18n(<Harness />);
    await user.type(input(), '9876543210');
    const line = () => screen.getByText((_, el) => el?.classList.contains('data-notice') ?? false);
    expect(line().textContent).toBe('Before you send your number, read how we use your data.');
    // Under Send, before anything else of the step's fine print.
    expect(send().nextElementSibling).toBe(line());
    const link = screen.getByRole<HTMLAnchorElement>('link', { name: 'how we use your data' });
    expect(link.getAttribute('href')).toBe('/notice');

    await user.click(link);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByTestId('legal-notice')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input().value).toBe('9876543210');
    expect(send().disabled).toBe(false);

    await act(() => i18n.changeLanguage('ta'));
    expect(line().textContent).toBe('எண்ணை அனுப்பும் முன், உங்கள் தரவு என்ன ஆகும் என்பதைப் படிக்கவும்.');
    expect(screen.getByRole('link', { name: 'உங்கள் தரவு என்ன ஆகும்' }).getAttribute('href')).toBe('/notice');
  });

  it('enables Send only for a valid Indian mobile number', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    expect(send().disabled).toBe(true);
    await user.type(input(), '987654321');
    expect(send().disabled).toBe(true);
    await user.type(input(), '0');
    expect(send().disabled).toBe(false);

    await user.clear(input());
    await user.type(input(), '5876543210'); // Indian mobiles start with 6-9
    expect(send().disabled).toBe(true);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('An Indian mobile number starts with 6, 7, 8 or 9.')).toBeTruthy();
  });

  it('says a short number is invalid once the field is left, and links the message to the field', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    await user.type(input(), '98765');
    expect(input().getAttribute('aria-invalid')).toBe('false');
    await user.tab();
    expect(input().getAttribute('aria-invalid')).toBe('true');
    const message = (input().getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(message).toContain('Please enter a valid 10-digit phone number');
  });
});

describe('mobile number entry: sending the code', () => {
  it('posts the number with a send_otp captcha token and reports the code sent', async () => {
    const user = userEvent.setup();
    const onSent = vi.fn();
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(
        jsonResponse(200, {
          sentTo: '9876543210',
          channel: 'whatsapp',
          fellBack: false,
          deliveryHandle: 'v1.p.m',
          expiresInSeconds: 300,
          resendAfterSeconds: 60,
          smsOfferAfterSeconds: 30,
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithI18n(<Harness onSent={onSent} />);
    await user.type(input(), '9876543210');
    await user.click(send());

    await waitFor(() => expect(onSent).toHaveBeenCalledOnce());
    expect(onSent.mock.calls[0]?.[0]).toMatchObject({
      mobile: '9876543210',
      otp: { sentTo: '9876543210', channel: 'whatsapp', handle: 'v1.p.m' },
    });
    expect(execute).toHaveBeenCalledWith('test-site-key', { action: 'send_otp' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/otp/request');
    // The page's language goes along: an SMS goes in Tamil where a Tamil template is registered.
    expect(JSON.parse(init?.body as string)).toEqual({
      mobile: '9876543210',
      captchaToken: 'dev.send_otp.0.9',
      language: 'en',
    });
  });

  it('says it is busy and trying again while API Gateway throttles, then goes on', async () => {
    const user = userEvent.setup();
    const onSent = vi.fn();
    let calls = 0;
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => {
        calls += 1;
        if (calls === 1) return Promise.resolve(jsonResponse(429, { message: 'Too Many Requests' }));
        return new Promise<Response>((resolve) => (answer = resolve));
      }),
    );
    renderWithI18n(<Harness onSent={onSent} />, 'ta');
    await user.type(screen.getByLabelText('கைபேசி எண்'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' }));
    // The first wait is at most half a second; the notice is up meanwhile, in the page's language.
    expect(
      (await screen.findByText('இப்போது பலர் ஒரே நேரத்தில் விண்ணப்பிக்கிறார்கள். மீண்டும் முயல்கிறோம்…')).getAttribute('role'),
    ).toBe('status');
    await waitFor(() => expect(calls).toBe(2), { timeout: 2000 });
    answer(
      jsonResponse(200, {
        sentTo: '9876543210',
        channel: 'sms',
        fellBack: false,
        deliveryHandle: 'v1.p.m',
        expiresInSeconds: 300,
        resendAfterSeconds: 60,
        smsOfferAfterSeconds: null,
      }),
    );
    await waitFor(() => expect(onSent).toHaveBeenCalledOnce());
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a visitor whose number has no WhatsApp what to do, without the provider text', async () => {
    const user = userEvent.setup();
    const refuse = (smsAvailable: boolean) =>
      jsonResponse(400, {
        error: {
          code: 'WHATSAPP_UNDELIVERABLE',
          message: 'Failed to send WhatsApp OTP (#131026) Message undeliverable',
          providerCode: 131026,
          ...(smsAvailable && { smsAvailable }),
        },
      });
    let smsAvailable = false;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(refuse(smsAvailable))),
    );
    const { i18n } = renderWithI18n(<Harness />);
    await user.type(input(), '9876543210');
    await user.click(send());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This number does not seem to have WhatsApp. Check the number and try again.',
    );
    // The message already shown follows a language switch at once.
    await act(() => i18n.changeLanguage('ta'));
    expect(screen.getByRole('alert').textContent).toBe(
      'இந்த எண்ணில் வாட்ஸ்அப் இல்லை எனத் தெரிகிறது. எண்ணைச் சரிபார்த்து மீண்டும் முயலவும்.',
    );
    await act(() => i18n.changeLanguage('en'));

    smsAvailable = true;
    await user.click(send());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'This number does not seem to have WhatsApp. Check the number, or get the code by SMS.' +
          'Try again: if WhatsApp cannot take it, the code will come by SMS.',
      ),
    );
    expect(screen.getByRole('alert').textContent).not.toContain('131026');
  });
});

describe('mobile number entry: what a refused send says', () => {
  it('says an operator fault as "try later", never its settings', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(
          jsonResponse(500, {
            error: { code: 'WHATSAPP_INVALID_PHONE_NUMBER_ID', message: 'Invalid Phone Number ID' },
          }),
        ),
      ),
    );
    renderWithI18n(<Harness />, 'ta');
    await user.type(screen.getByLabelText('கைபேசி எண்'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'இப்போது குறியீடுகளை அனுப்ப இயலவில்லை. சில நிமிடங்கள் கழித்து மீண்டும் முயலவும்.',
    );
  });

  it('shows the sending state while the request is in flight, then the wait in seconds', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderWithI18n(<Harness />);
    await user.type(input(), '9876543210');
    await user.click(send());
    const busy = await screen.findByRole<HTMLButtonElement>('button', { name: 'Sending...' });
    expect(busy.disabled).toBe(true);

    answer(jsonResponse(429, { error: { code: 'RATE_LIMITED', message: 'x', retryAfterSeconds: 42 } }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please try again in 42 seconds.');
    expect(send().disabled).toBe(false);
  });

  it('says the wait in minutes, in Tamil', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(jsonResponse(429, { error: { code: 'RATE_LIMITED', message: 'x', retryAfterSeconds: 3000 } })),
      ),
    );
    renderWithI18n(<Harness />, 'ta');
    await user.type(screen.getByLabelText('கைபேசி எண்'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'அதிக முறை முயன்றுவிட்டீர்கள். 50 நிமிடங்கள் கழித்து மீண்டும் முயலவும்.',
    );
  });

  it('says "already registered" in both languages, the visitor\'s first', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(jsonResponse(409, { error: { code: 'ALREADY_REGISTERED', message: 'x' } })),
      ),
    );
    renderWithI18n(<Harness />, 'ta');
    await user.type(screen.getByLabelText('கைபேசி எண்'), '9876543210');
    await user.click(screen.getByRole('button', { name: 'வாட்ஸ்அப் OTP அனுப்பவும்' }));
    const lines = [...(await screen.findByRole('alert')).querySelectorAll('p')];
    expect(lines.map((p) => [p.lang, p.textContent])).toEqual([
      ['ta', 'இந்தக் கைபேசி எண்ணைக் கொண்டு நீங்கள் ஏற்கெனவே பதிவு செய்துள்ளீர்கள்.'],
      ['en', 'You have already registered with this phone number.'],
    ]);
  });
});

describe('mobile number entry: no captcha, no network', () => {
  it('shows the captcha message when no token comes, without calling the API', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    execute.mockImplementation(() => Promise.reject(new Error('no')));
    renderWithI18n(<Harness />);
    await user.type(input(), '9876543210');
    await user.click(send());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The security check failed. Please reload the page and try again.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps Send disabled and says so when the captcha script cannot load', async () => {
    delete window.grecaptcha;
    // happy-dom refuses to load scripts: the same as a blocked or failed download.
    renderWithI18n(<Harness />);
    // Nothing is fetched before the visitor starts on the number (the page comes first),
    // so nothing has failed yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('alert')).toBeNull();
    const user = userEvent.setup();
    await user.type(input(), '9876543210');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The security check failed. Please reload the page and try again.',
    );
    expect(send().disabled).toBe(true);
  });

  it('shows the network message when the request does not reach the server', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderWithI18n(<Harness />);
    await user.type(input(), '9876543210');
    await user.click(send());
    expect((await screen.findByRole('alert')).textContent).toBe('Network error. Please try again.');
    expect(input().value).toBe('9876543210');
  });
});
