/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hasHorizontalOverflow, launchChromium, screenshot, seriousAxeViolations, viewports } from '../support/browser';

// The product as a newcomer first sees it after `npm start`: the public page with its
// language switch and a live health line that went through every layer, and the staff
// sign-in screen.
const appUrl = inject('appUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function openPage(
  viewport: keyof typeof viewports,
  language?: 'en' | 'ta',
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: viewports[viewport] });
  if (language) {
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
    }, language);
  }
  return { page: await context.newPage(), context };
}

describe('the accessibility check every screen goes through', () => {
  it('finds what it must find: an unlabelled field (in a frame too), an image without text, unreadable contrast', async () => {
    const { page, context } = await openPage('phone');
    try {
      await page.setContent(`<html lang="en"><body><main><h1>Form</h1>
        <input type="text"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <p style="color:#bbb;background:#fff">Faint text</p></main></body></html>`);
      const found = (await seriousAxeViolations(page)).map((line) => line.split(':')[0]);
      expect(found).toEqual(expect.arrayContaining(['label', 'image-alt', 'color-contrast']));
      // Inside a frame of the page's own origin as well (served from the app's address: a
      // page set from nothing has no origin to share).
      await page.route(`${appUrl}/axe-control`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<html lang="en"><head><title>Control</title></head><body><main><h1>Framed</h1><iframe title="form" srcdoc="<!doctype html><html lang=en><title>Inner</title><main><input type=text></main></html>"></iframe></main></body></html>',
        }),
      );
      await page.goto(`${appUrl}/axe-control`);
      await page.frames()[1]!.locator('input').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([expect.stringMatching(/^label: .*iframe/)]);
    } finally {
      await context.close();
    }
  });
});

describe('local stand-ins', () => {
  // An empty outbox on a fresh start is proven in test/integration/local-stack.test.ts;
  // here other files may have sent messages already.
  it('serves the outbox and the webhook deliveries through the app', async () => {
    expect(Array.isArray(await (await fetch(`${appUrl}/dev/outbox.json`)).json())).toBe(true);
    expect(Array.isArray(await (await fetch(`${appUrl}/dev/webhooks.json`)).json())).toBe(true);
    expect((await fetch(`${appUrl}/dev/outbox`)).headers.get('content-type')).toMatch(/text\/html/);
  });

  it('serves the runtime configuration the SPA starts from', async () => {
    const config = (await (await fetch(`${appUrl}/config.json`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ stage: 'local', apiBasePath: '/api', captcha: { scriptUrl: '/dev/captcha.js' } });
  });
});

describe('public page', () => {
  it('shows the service as online through the API, DynamoDB included', async () => {
    const { page, context } = await openPage('phone');
    await page.goto(appUrl);
    await expect.poll(() => page.getByTestId('health-status').getAttribute('data-state')).toBe('ok');
    await context.close();
  });

  it('switches between English and Tamil and keeps the choice across a reload', async () => {
    const { page, context } = await openPage('phone');
    await page.goto(appUrl);
    await page.getByRole('button', { name: 'தமிழ்' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ta');
    expect(await page.evaluate(() => localStorage.getItem('app_language'))).toBe('ta');
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ta');
    expect(await page.getByRole('button', { name: 'தமிழ்' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => localStorage.getItem('app_language'))).toBe('en');
    await context.close();
  });

  for (const language of ['en', 'ta'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`fits a ${viewport} screen in ${language} with no serious accessibility problem`, async () => {
        const { page, context } = await openPage(viewport, language);
        await page.goto(appUrl);
        await expect.poll(() => page.getByTestId('health-status').getAttribute('data-state')).toBe('ok');
        await screenshot(page, `public-${language}-${viewport}`);
        expect(await hasHorizontalOverflow(page)).toBe(false);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      });
    }
  }
});

describe('staff area', () => {
  for (const language of ['en', 'ta'] as const) {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`shows the sign-in screen at /admin (${language}, ${viewport})`, async () => {
        const { page, context } = await openPage(viewport, language);
        await page.goto(`${appUrl}/admin`);
        await page.locator('input[type="email"]').waitFor();
        expect(await page.locator('input[type="password"]').count()).toBe(1);
        expect(await page.locator('button[type="submit"]').count()).toBe(1);
        await screenshot(page, `admin-login-${language}-${viewport}`);
        expect(await hasHorizontalOverflow(page)).toBe(false);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      });
    }
  }
});
