/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { staffEn } from '../../web/src/i18n/staff-en';
import { staffTa } from '../../web/src/i18n/staff-ta';
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
  await page.getByRole('heading', { level: 1, name: options.heading(s) }).waitFor();
  return { page, context, s };
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
