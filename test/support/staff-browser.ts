/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { staffEn } from '../../web/src/i18n/staff-en';
import { staffTa } from '../../web/src/i18n/staff-ta';
import { localTotpSecret } from '../../local/cognito';
import { totpCode } from '../../local/totp';
import { hasHorizontalOverflow, screenshot, viewports } from './browser';

// A signed-in staff page in Chromium, for the e2e files that look at one staff screen.

export const seededAdmin = { email: 'admin@example.com', password: 'Admin-Password-123!' };
export const staffTexts = { en: staffEn, ta: staffTa } as const;
export type StaffLanguage = keyof typeof staffTexts;

export interface StaffPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly s: (typeof staffTexts)[StaffLanguage];
}

/** A new context in the language (and browser locale) asked for, signed in as the seeded admin at `path`. */
export async function openStaffPage(
  browser: Browser,
  options: {
    appUrl: string;
    language: StaffLanguage;
    viewport: { width: number; height: number };
    path: string;
    heading: (s: StaffPage['s']) => string;
    locale?: string;
  },
): Promise<StaffPage> {
  const context = await browser.newContext({
    viewport: options.viewport,
    locale: options.locale ?? 'en-IN',
    reducedMotion: 'reduce',
  });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, options.language);
  const page = await context.newPage();
  const s = staffTexts[options.language];
  await page.goto(`${options.appUrl}${options.path}`);
  await page.getByLabel(s.login.email, { exact: true }).fill(seededAdmin.email);
  await page.getByLabel(s.login.password, { exact: true }).fill(seededAdmin.password);
  await page.getByRole('button', { name: s.login.login, exact: true }).click();
  await passSecondFactor(page, s, seededAdmin.email);
  await page.getByRole('heading', { level: 1, name: options.heading(s) }).waitFor();
  return { page, context, s };
}

type Texts = (typeof staffTexts)[StaffLanguage];

/**
 * The staff login card's step once the last click has been answered: its form is no
 * longer busy (`aria-busy`, set as the click submits it) and it shows an error or a step
 * other than the first, or the card has gone (signed in).
 */
async function loginStep(page: Page, s: Texts): Promise<'code' | 'setup' | 'other'> {
  const settled = await page.waitForFunction(
    (first) => {
      const card = document.querySelector('[data-testid="staff-login"]');
      if (!card) return { heading: null };
      const heading = card.querySelector('h1')?.textContent ?? null;
      if (card.querySelector('form[aria-busy="true"]')) return false;
      return card.querySelector('[role="alert"]') || heading !== first ? { heading } : false;
    },
    s.login.title,
    // Polled by time: a page in a background tab gets no animation frames.
    { polling: 100 },
  );
  const { heading } = (await settled.jsonValue()) as { heading: string | null };
  if (heading === s.totp.title) return 'code';
  if (heading === s.totpSetup.title) return 'setup';
  return 'other';
}

/**
 * After "Login" (or "Set password"), the second factor as a staff member gives it: on the
 * enrolment screen, a code from the key it shows as text; on the code screen, a code from
 * the user's secret (which the local pool keeps, as the start-up table prints it). Does
 * nothing when neither is asked (wrong password, new password, signed in).
 */
export async function passSecondFactor(page: Page, s: Texts, email: string): Promise<void> {
  const step = await loginStep(page, s);
  if (step === 'other') return;
  let secret: string | undefined;
  if (step === 'setup') {
    secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  } else {
    const config = (await (await fetch(new URL('/config.json', page.url()))).json()) as {
      cognito: { endpoint: string; userPoolClientId: string };
    };
    secret = await localTotpSecret(config.cognito.endpoint, { clientId: config.cognito.userPoolClientId }, email);
  }
  if (!secret) throw new Error(`no TOTP secret for ${email}`);
  const label = step === 'setup' ? s.totpSetup.enterCode : s.totp.code;
  await page.getByLabel(label, { exact: true }).fill(totpCode(secret));
  await page.getByRole('button', { name: step === 'setup' ? s.totpSetup.submit : s.totp.submit, exact: true }).click();
  await page.getByTestId('staff-login').waitFor({ state: 'detached' });
}

/** The page at 360, 768 and 1280 px: a screenshot of each, and no sideways scroll at any. */
export async function lookAtEveryWidth(page: Page, name: string): Promise<void> {
  for (const width of ['phone', 'tablet', 'desktop'] as const) {
    await page.setViewportSize(viewports[width]);
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, `${name}-${viewports[width].width}`);
    expect(await hasHorizontalOverflow(page), `${name} at ${viewports[width].width} px`).toBe(false);
  }
}
