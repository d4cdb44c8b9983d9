// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OtpStatusResponse } from '../../../../../rules/api';
import { jsonResponse, renderWithI18n } from '../../../testing/render';
import type { Language } from '../../../i18n/language';
import { type OtpSnapshot, otpSnapshotOf, type Verification } from '../utils/flow-storage';
import { OtpCodeStep } from './otp-code-step';

// The code step's states: where the code went, its delivery, the SMS offer and the switch,
// provider failures and a busy service; in both languages, switching between them.
const MOBILE = '9876543210';
const POLL_MS = 40;

type Route = (body: Record<string, unknown>) => Response | Promise<Response>;
let routes: Record<string, Route>;
const bodyOf = (init: RequestInit | undefined) =>
  JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>;
const fetchMock = vi.fn<typeof fetch>((input, init) => {
  const route = typeof input === 'string' ? routes[input] : undefined;
  if (!route) return Promise.resolve(jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'x' } }));
  return Promise.resolve(route(bodyOf(init)));
});
const bodiesOf = (url: string) => fetchMock.mock.calls.filter(([u]) => u === url).map(([, init]) => bodyOf(init));

let status: OtpStatusResponse;
let tokens = 0;

beforeEach(() => {
  tokens = 0;
  window.grecaptcha = {
    ready: (callback) => callback(),
    execute: (_key, { action }) => Promise.resolve(`dev.${action}.${++tokens}`),
  };
  status = { channel: 'whatsapp', status: 'accepted', smsOffer: false };
  routes = {
    '/api/otp/status': () => jsonResponse(200, status),
    '/api/otp/request': (body) =>
      jsonResponse(200, {
        sentTo: MOBILE,
        channel: body.switchToSms ? 'sms' : 'whatsapp',
        fellBack: false,
        deliveryHandle: body.switchToSms ? 'v1.sms.mac' : 'v1.wa2.mac',
        expiresInSeconds: 300,
        resendAfterSeconds: 60,
        smsOfferAfterSeconds: body.switchToSms ? null : 30,
      }),
  };
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockClear();
  delete window.grecaptcha;
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
});

function sent(overrides: Partial<Parameters<typeof otpSnapshotOf>[0]> = {}, switched = false): OtpSnapshot {
  return otpSnapshotOf(
    {
      sentTo: MOBILE,
      channel: 'whatsapp',
      fellBack: false,
      deliveryHandle: 'v1.wa.mac',
      expiresInSeconds: 300,
      resendAfterSeconds: 60,
      smsOfferAfterSeconds: 30,
      ...overrides,
    },
    Date.now(),
    switched,
  );
}

/** The step with its snapshot held as the flow holds it. */
function Harness({
  initial,
  onVerified = () => undefined,
}: {
  initial: OtpSnapshot;
  onVerified?: (verification: Verification) => void;
}) {
  const [otp, setOtp] = useState(initial);
  return (
    <OtpCodeStep
      mobile={MOBILE}
      otp={otp}
      autoFocus={false}
      onVerified={onVerified}
      onRegistered={() => undefined}
      onResent={setOtp}
      onChangeNumber={() => undefined}
      pollIntervalMs={POLL_MS}
    />
  );
}

const render = (otp: OtpSnapshot, language: Language = 'en') => renderWithI18n(<Harness initial={otp} />, language);
const sentLine = () => document.querySelector('.sent-info .alert')?.textContent;
const statusPolls = () => bodiesOf('/api/otp/status').length;
const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('the code step: the send and the SMS offer', () => {
  it('says a WhatsApp send as the spec words it, then "Delivered" when reported, and stops asking', async () => {
    const { i18n } = render(sent());
    expect(sentLine()).toBe(`OTP sent to WhatsApp number: +91 ${MOBILE}`);
    expect(screen.getByRole('button', { name: 'Verify WhatsApp OTP' })).toBeTruthy();
    await waitFor(() => expect(statusPolls()).toBeGreaterThanOrEqual(2));
    expect(bodiesOf('/api/otp/status')[0]).toEqual({ mobile: MOBILE, handle: 'v1.wa.mac' });
    expect(screen.getByTestId('delivery-state').textContent).toBe('');

    status = { channel: 'whatsapp', status: 'delivered', smsOffer: false };
    await waitFor(() => expect(screen.getByTestId('delivery-state').textContent).toBe('✓ Delivered'));
    const polls = statusPolls();
    await wait(POLL_MS * 4);
    expect(statusPolls()).toBe(polls);
    expect(screen.queryByTestId('sms-offer')).toBeNull();

    await act(() => i18n.changeLanguage('ta'));
    expect(sentLine()).toBe(`OTP அனுப்பப்பட்ட வாட்ஸ்அப் எண்: +91 ${MOBILE}`);
    expect(screen.getByTestId('delivery-state').textContent).toBe('✓ சென்றடைந்தது');
  });

  it('says an SMS send, and a fallback to SMS, in both languages', async () => {
    status = { channel: 'sms', status: 'sent', smsOffer: false };
    const { i18n, unmount } = render(sent({ channel: 'sms', smsOfferAfterSeconds: null }));
    expect(sentLine()).toBe(`OTP sent by SMS to +91\u00a0${MOBILE}`);
    expect(screen.getByText('Check your SMS messages for the code. It is valid for 5 minutes.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verify OTP' })).toBeTruthy();
    await act(() => i18n.changeLanguage('ta'));
    expect(sentLine()).toBe(`SMS மூலம் OTP அனுப்பப்பட்ட எண்: +91\u00a0${MOBILE}`);
    unmount();

    render(sent({ channel: 'sms', fellBack: true, smsOfferAfterSeconds: null }), 'ta');
    expect(sentLine()).toBe(`வாட்ஸ்அப் மூலம் அனுப்ப இயலவில்லை; எனவே OTP, SMS மூலம் +91\u00a0${MOBILE} எண்ணுக்கு அனுப்பப்பட்டது`);
    await waitFor(() => expect(statusPolls()).toBeGreaterThanOrEqual(1));
    expect(screen.queryByTestId('sms-offer')).toBeNull();
  });

  it('hands on a verified SMS code with its channel, for the form to say', async () => {
    const user = userEvent.setup();
    routes['/api/otp/verify'] = () =>
      jsonResponse(200, { verificationToken: 'signed', expiresAt: new Date(Date.now() + 600_000).toISOString() });
    const onVerified = vi.fn();
    renderWithI18n(<Harness initial={sent({ channel: 'sms', smsOfferAfterSeconds: null })} onVerified={onVerified} />);
    await user.type(screen.getByLabelText('Enter the 6-digit OTP'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify OTP' }));
    await waitFor(() => expect(onVerified).toHaveBeenCalledOnce());
    expect(onVerified.mock.calls[0]?.[0]).toMatchObject({ token: 'signed', mobile: MOBILE, channel: 'sms' });
  });

  it('offers SMS once the server allows it, and switches with a fresh captcha token and the handle', async () => {
    const user = userEvent.setup();
    const { i18n } = render(sent());
    await waitFor(() => expect(statusPolls()).toBeGreaterThanOrEqual(1));
    expect(screen.queryByTestId('sms-offer')).toBeNull();

    status = { channel: 'whatsapp', status: 'sent', smsOffer: true };
    const offer = await screen.findByTestId('sms-offer');
    expect(offer.textContent).toBe("Didn't get it?Send by SMS");
    await act(() => i18n.changeLanguage('ta'));
    expect(offer.textContent).toBe('OTP வரவில்லையா?SMS மூலம் அனுப்பவும்');
    await act(() => i18n.changeLanguage('en'));

    routes['/api/otp/status'] = (body) =>
      jsonResponse(200, body.handle === 'v1.sms.mac' ? { channel: 'sms', status: 'sent', smsOffer: false } : status);
    await user.click(screen.getByRole('button', { name: 'Send by SMS' }));
    await waitFor(() =>
      expect(sentLine()).toBe(`A new OTP was sent by SMS to +91\u00a0${MOBILE}. The earlier code no longer works.`),
    );
    expect(bodiesOf('/api/otp/request')).toEqual([
      { mobile: MOBILE, captchaToken: 'dev.send_otp.1', language: 'en', switchToSms: 'v1.wa.mac' },
    ]);
    expect(screen.queryByTestId('sms-offer')).toBeNull();
    // The SMS's own handle is asked after from now on.
    await waitFor(() => expect(bodiesOf('/api/otp/status').at(-1)).toEqual({ mobile: MOBILE, handle: 'v1.sms.mac' }));
    expect(screen.getByTestId('resend-otp').textContent).toMatch(/^Resend OTP in [01]:\d\d$/);
  });
});

describe('the code step: a late offer, failed sends and a busy gateway', () => {
  it('asks the server as soon as the offer is due, not only on the next round', async () => {
    const offerAt = sent({ smsOfferAfterSeconds: 0.2 });
    // Rounds far apart: only the offer's own question can bring it in time.
    renderWithI18n(
      <OtpCodeStep
        mobile={MOBILE}
        otp={offerAt}
        autoFocus={false}
        onVerified={() => undefined}
        onRegistered={() => undefined}
        onResent={() => undefined}
        onChangeNumber={() => undefined}
        pollIntervalMs={60_000}
      />,
    );
    await waitFor(() => expect(statusPolls()).toBe(1));
    status = { channel: 'whatsapp', status: 'sent', smsOffer: true };
    await screen.findByTestId('sms-offer', {}, { timeout: 2000 });
    expect(statusPolls()).toBe(2);
  });

  it('says WhatsApp failed and offers SMS; a refused switch takes the offer away with a translated message', async () => {
    const user = userEvent.setup();
    status = { channel: 'whatsapp', status: 'failed', smsOffer: true };
    routes['/api/otp/request'] = () =>
      jsonResponse(409, { error: { code: 'SMS_SWITCH_NOT_ALLOWED', message: 'x', smsAvailable: true } });
    render(sent(), 'ta');
    const offer = await screen.findByTestId('sms-offer');
    expect(offer.textContent).toContain('வாட்ஸ்அப் செய்தி உங்கள் கைபேசியைச் சென்றடையவில்லை.');
    await user.click(screen.getByRole('button', { name: 'SMS மூலம் அனுப்பவும்' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'இப்போது குறியீட்டை SMS மூலம் அனுப்ப இயலாது. புதிய OTP-ஐக் கோரவும்.',
    );
    expect(screen.queryByTestId('sms-offer')).toBeNull();
  });

  it('says a failed WhatsApp send on a stage without SMS, with what to do, and no offer', async () => {
    status = { channel: 'whatsapp', status: 'failed', smsOffer: false };
    render(sent({ smsOfferAfterSeconds: null }));
    expect(
      await screen.findByText(
        'The WhatsApp message did not reach your phone. Check that this number has WhatsApp, then resend the OTP.',
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('sms-offer')).toBeNull();
  });

  it('says it is busy while a resend waits for the gateway, and the code went by SMS when WhatsApp refused it', async () => {
    const user = userEvent.setup();
    let calls = 0;
    let answer: (r: Response) => void = () => undefined;
    routes['/api/otp/request'] = () => {
      calls += 1;
      if (calls === 1) return jsonResponse(503, { message: 'Service Unavailable' });
      return new Promise<Response>((resolve) => (answer = resolve));
    };
    const { i18n } = render({ ...sent(), resendAt: Date.now() - 1 });
    await user.click(await screen.findByRole('button', { name: 'Resend OTP' }));
    const notice = await screen.findByText('Many people are applying right now. Trying again…');
    await act(() => i18n.changeLanguage('ta'));
    expect(notice.textContent).toBe('இப்போது பலர் ஒரே நேரத்தில் விண்ணப்பிக்கிறார்கள். மீண்டும் முயல்கிறோம்…');
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(calls).toBe(2), { timeout: 2000 });
    answer(
      jsonResponse(200, {
        sentTo: MOBILE,
        channel: 'sms',
        fellBack: true,
        deliveryHandle: 'v1.sms.mac',
        expiresInSeconds: 300,
        resendAfterSeconds: 60,
        smsOfferAfterSeconds: null,
      }),
    );
    await waitFor(() =>
      expect(sentLine()).toBe(`WhatsApp could not take the message, so the OTP was sent by SMS to +91\u00a0${MOBILE}`),
    );
    expect(screen.queryByText('Many people are applying right now. Trying again…')).toBeNull();
    expect(bodiesOf('/api/otp/request').at(-1)).toEqual({
      mobile: MOBILE,
      captchaToken: 'dev.send_otp.1',
      language: 'en',
    });
  });

  it('gives up on a busy gateway after its tries with a message that says to try later', async () => {
    const user = userEvent.setup();
    routes['/api/otp/request'] = () =>
      new Response('{"message":"Too Many Requests"}', { status: 429, headers: { 'retry-after': '600' } });
    render({ ...sent(), resendAt: Date.now() - 1 }, 'ta');
    await user.click(await screen.findByRole('button', { name: 'OTP-ஐ மீண்டும் அனுப்பவும்' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'இப்போது பலர் ஒரே நேரத்தில் விண்ணப்பிக்கிறார்கள். ஒரு நிமிடம் கழித்து மீண்டும் முயலவும்.',
    );
  });
});

describe('the code step: how often it asks', () => {
  it('asks a third as often once SMS is offered', async () => {
    status = { channel: 'whatsapp', status: 'sent', smsOffer: true };
    render(sent());
    await screen.findByTestId('sms-offer');
    const before = statusPolls();
    await wait(POLL_MS * 6);
    // Every 3 rounds instead of every round: about 2 questions in 6 rounds' time, not 6.
    expect(statusPolls() - before).toBeLessThanOrEqual(3);
    expect(statusPolls() - before).toBeGreaterThanOrEqual(1);
  });

  it('does not ask while the tab is hidden, and asks again when it is shown', async () => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    render(sent());
    await wait(POLL_MS * 4);
    expect(statusPolls()).toBe(0);
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(statusPolls()).toBeGreaterThanOrEqual(1));
  });

  it('stops asking once the code has run out, and after the server refuses the handle', async () => {
    render({ ...sent(), expiresAt: Date.now() - 1 });
    await wait(POLL_MS * 4);
    expect(statusPolls()).toBe(0);
    cleanup();

    routes['/api/otp/status'] = () => jsonResponse(400, { error: { code: 'DELIVERY_HANDLE_INVALID', message: 'x' } });
    render(sent());
    await waitFor(() => expect(statusPolls()).toBe(1));
    await wait(POLL_MS * 4);
    expect(statusPolls()).toBe(1);
  });
});
