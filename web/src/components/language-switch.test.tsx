// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from '../i18n/use-translation';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RuntimeConfigContext } from '../config';
import { PublicFlow } from '../features/public-flow/components/public-flow';
import { emptyForm } from '../features/public-flow/utils/application-form';
import { FLOW_STORAGE_KEY, type FlowSnapshot, otpSnapshotOf } from '../features/public-flow/utils/flow-storage';
import { loadI18n } from '../i18n/i18n';
import type { Language } from '../i18n/language';
import { jsonResponse, testConfig } from '../testing/render';
import { LanguageSwitch } from './language-switch';

// Issue 13, item 1: every screen re-renders in the new language at once, errors already
// shown included, whichever language's strings were loaded first. The app starts with one
// language only (as loadI18n does), and the switch fetches the other.
const MOBILE = '9876543210';

beforeEach(() => {
  window.grecaptcha = { ready: (callback) => callback(), execute: () => Promise.resolve('dev.send_otp.0.9') };
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { channel: 'sms', status: 'sent', smsOffer: false }))),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
  delete window.grecaptcha;
});

function store(snapshot: FlowSnapshot) {
  sessionStorage.setItem(FLOW_STORAGE_KEY, JSON.stringify(snapshot));
}

async function renderApp(language: Language) {
  const i18n = await loadI18n(language);
  render(
    <RuntimeConfigContext.Provider value={testConfig}>
      <I18nextProvider i18n={i18n}>
        <LanguageSwitch />
        <PublicFlow />
      </I18nextProvider>
    </RuntimeConfigContext.Provider>,
  );
  return i18n;
}

describe('the language switch', () => {
  it.each([
    ['en', 'ta', 'இயக்கத்தில் இணையுங்கள்', 'சில விவரங்கள் விடுபட்டுள்ளன அல்லது சரியாக இல்லை. படிவத்தைச் சரிபார்க்கவும்.', 'முழுப் பெயர்'],
    ['ta', 'en', 'Join the Movement', 'Some details are missing or not valid. Please check the form.', 'Full name'],
  ] as const)('turns the form and its errors from %s to %s at once', async (from, to, heading, alert, nameLabel) => {
    const user = userEvent.setup();
    store({
      step: 'form',
      mobile: MOBILE,
      verification: { token: 't', expiresAt: new Date(Date.now() + 600_000).toISOString(), mobile: MOBILE },
      form: emptyForm,
    });
    await renderApp(from);
    const submit = await screen.findByRole('button', {
      name: from === 'en' ? 'Submit application' : 'விண்ணப்பத்தைச் சமர்ப்பிக்கவும்',
    });
    await user.click(submit);
    await screen.findByRole('alert');

    await user.click(screen.getByRole('button', { name: to === 'en' ? 'English' : 'தமிழ்' }));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe(heading));
    expect(screen.getByRole('alert').textContent).toBe(alert);
    expect(screen.getByLabelText(nameLabel)).toBeTruthy();
  });

  it('turns the code step, where the code went, at once', async () => {
    const user = userEvent.setup();
    const otp = otpSnapshotOf(
      {
        sentTo: MOBILE,
        channel: 'sms',
        fellBack: true,
        deliveryHandle: 'v1.p.m',
        expiresInSeconds: 300,
        resendAfterSeconds: 60,
        smsOfferAfterSeconds: null,
      },
      Date.now(),
    );
    store({ step: 'code', mobile: MOBILE, otp, form: emptyForm });
    await renderApp('en');
    // The code step and the later steps' strings load lazily.
    const sentLine = () => document.querySelector('.sent-info .alert')?.textContent;
    await waitFor(
      () =>
        expect(sentLine()).toBe(
          `WhatsApp could not take the message, so the OTP was sent by SMS to +91\u00a0${MOBILE}`,
        ),
      { timeout: 5000 },
    );
    await user.click(screen.getByRole('button', { name: 'தமிழ்' }));
    await waitFor(() =>
      expect(sentLine()).toBe(`வாட்ஸ்அப் மூலம் அனுப்ப இயலவில்லை; எனவே OTP, SMS மூலம் +91\u00a0${MOBILE} எண்ணுக்கு அனுப்பப்பட்டது`),
    );
    expect(screen.getByRole('button', { name: 'OTP-ஐச் சரிபார்க்கவும்' })).toBeTruthy();
  });
});
