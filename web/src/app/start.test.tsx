// @vitest-environment happy-dom
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Root, createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '../i18n/language';
import { jsonResponse, testConfig } from '../testing/render';
import { start } from './start';

let root: Root | undefined;
let container: HTMLElement;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  window.history.replaceState(null, '', '/');
  // The captcha stand-in, as /dev/captcha.js defines it (happy-dom loads no scripts).
  window.grecaptcha = { ready: (callback) => callback(), execute: () => Promise.resolve('dev.send_otp.0.9') };
  // The API is not under test here: /api/health answers healthy.
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() =>
      Promise.resolve(jsonResponse(200, { status: 'ok', stage: 'test', database: 'ok', time: 'now' })),
    ),
  );
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
  localStorage.clear();
  sessionStorage.clear();
  delete window.grecaptcha;
  vi.unstubAllGlobals();
});

function configFetch(config: unknown, status = 200): typeof fetch {
  return () => Promise.resolve(jsonResponse(status, config));
}

async function boot(fetchConfig: typeof fetch) {
  root = createRoot(container);
  await act(() => start(root!, fetchConfig));
}

describe('start-up', () => {
  it('renders the public page in the configured default language', async () => {
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty('textContent', 'உறுப்பினராக இணையுங்கள்');
    expect(document.documentElement.lang).toBe('ta');
  });

  it('renders English when English is the configured default', async () => {
    await boot(configFetch(testConfig));
    expect(await screen.findByRole('heading', { level: 1, name: 'Become a member' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });

  it('switches language, remembers the choice, and keeps it on the next visit', async () => {
    const user = userEvent.setup();
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    const switcher = await screen.findByRole('group', { name: 'மொழி' });
    await user.click(within(switcher).getByRole('button', { name: 'English' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Become a member' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send WhatsApp OTP' })).toBeTruthy();
    expect(within(switcher).getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(switcher).getByRole('button', { name: 'தமிழ்' }).getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');

    // Next visit: the stored choice wins over the configured Tamil default.
    act(() => root?.unmount());
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Become a member' })).toBeTruthy();
  });

  it('shows a bilingual error screen when /config.json cannot be loaded', async () => {
    await boot(configFetch({ error: 'nope' }, 404));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The site could not start');
    expect(alert.textContent).toContain('தளத்தைத் தொடங்க இயலவில்லை');
  });

  it('shows the error screen when /config.json does not match the schema', async () => {
    await boot(configFetch({ ...testConfig, defaultLanguage: 'fr' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The site could not start');
  });

  it('loads the staff sign-in screen on /admin and below', async () => {
    window.history.replaceState(null, '', '/admin/reports');
    await boot(configFetch(testConfig));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('speaks English in the staff area even where the public default is Tamil, unless Tamil was chosen', async () => {
    window.history.replaceState(null, '', '/admin');
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');

    act(() => root?.unmount());
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'ta');
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'பணியாளர் உள்நுழைவு' })).toBeTruthy();
  });

  it("serves /notice as a page of its own, naming the stage's data contact, with the way back", async () => {
    window.history.replaceState(null, '', '/notice');
    await boot(configFetch({ ...testConfig, defaultLanguage: 'ta' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'தரவு அறிவிப்பு' })).toBeTruthy();
    expect((await screen.findByTestId('data-contact')).textContent).toContain(testConfig.dataNotice.contact.email);
    expect(screen.getByRole('link', { name: 'விண்ணப்பத்துக்குத் திரும்பவும்' }).getAttribute('href')).toBe('/');
  });

  it('refuses a /config.json without the data notice: a stage must name its contact', async () => {
    const { dataNotice: _dataNotice, ...withoutNotice } = testConfig;
    await boot(configFetch(withoutNotice));
    expect((await screen.findByRole('alert')).textContent).toContain('The site could not start');
  });

  it('answers an unknown path with a not-found page', async () => {
    window.history.replaceState(null, '', '/no-such-page');
    await boot(configFetch(testConfig));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});
