/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { MyApplication } from '../../rules/my-application';
import {
  hasHorizontalOverflow,
  launchChromium,
  screenshot,
  screenshotsDir,
  seriousAxeViolations,
  viewports,
} from '../support/browser';
import { findLeaks } from '../support/log-scan';
import {
  type ApplicantLanguage,
  applicantTexts,
  latestCode as latestCodeAt,
  newCode as newCodeAt,
  outbox,
  proveNumber as proveNumberAt,
  setClockOffset as setClockOffsetAt,
} from '../support/my-application-browser';
import { inkLines, pdfPagePng, rasterisePdf } from '../support/pixels';
import { goodCaptcha, post, submitBody } from '../support/public-flow';
import {
  applyThroughPublicFlow,
  randomMarker,
  randomMobile,
  seededAdminApi,
  type staffApi,
} from '../support/staff-data';
import { webhookDeliveries } from '../support/stand-ins';

// Issue 21's "My application" in Chromium against `npm start`, on a 360 px phone: a
// registered applicant proves their number with the code, sees what is held about them in
// their language (the switch turns it all at once), takes a JSON and a PDF copy, and
// withdraws with one confirmation. Afterwards the staff list and an export hold nothing of
// them, the webhook heard `deleted`, and the same number applies again.

const appUrl = inject('appUrl');
const texts = applicantTexts;
type Language = ApplicantLanguage;
let browser: Browser;
let staff: ReturnType<typeof staffApi>;

beforeAll(async () => {
  browser = await launchChromium();
  staff = await seededAdminApi(appUrl, inject('localDataDir'));
});

afterAll(async () => {
  await browser?.close();
  // Nothing this file's applicants sent or were sent reached the stack's log: the new
  // routes log masked numbers and ids only.
  const mine = (await outbox(appUrl)).filter((m) => used.has(m.to.replace(/^\+?91/, '')));
  const leaks = findLeaks(readFileSync(inject('stackLogFile'), 'utf8'), {
    phones: [...used],
    codes: mine.flatMap((m) => (m.code ? [m.code] : [])),
  });
  expect(leaks).toEqual([]);
});

/** The numbers this file applied with. */
const used = new Set<string>();
const latestCode = (mobile: string) => latestCodeAt(appUrl, mobile);
const newCode = (mobile: string, notCode: string) => newCodeAt(appUrl, mobile, notCode);
const setClockOffset = (offsetMs: number) => setClockOffsetAt(appUrl, offsetMs);
const proveNumber = (page: Page, language: Language, mobile: string, appliedWith: string) =>
  proveNumberAt(page, appUrl, { language, mobile, appliedWith });

async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return file.path();
}

/** What the staff list and an export find of a marker in the name. */
async function searched(marker: string) {
  const list = await staff<{ items: { id: string }[] }>('/api/admin/applications/search', {
    method: 'POST',
    body: { filters: { q: marker }, pageSize: 10 },
  });
  const exported = await staff<{ total: number }>('/api/admin/exports', {
    method: 'POST',
    body: { filters: { q: marker } },
  });
  return { ids: list.body.items.map((item) => item.id), exported: exported.body.total };
}

async function checkWidths(page: Page, name: string) {
  for (const width of ['phone', 'tablet', 'desktop'] as const) {
    await page.setViewportSize(viewports[width]);
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, `${name}-${viewports[width].width}`);
    expect(await hasHorizontalOverflow(page), `${name} at ${width}`).toBe(false);
  }
  await page.setViewportSize(viewports.phone);
}

describe.each(['ta', 'en'] as const)('My application in %s', (language) => {
  it('shows what is held, gives a copy, and withdraws with one confirmation: nothing is left, and the number applies again', async () => {
    const s = texts[language];
    const other: Language = language === 'ta' ? 'en' : 'ta';
    const mobile = randomMobile();
    used.add(mobile);
    const marker = randomMarker();
    const name = language === 'ta' ? `க்ஷேமா கொற்றவை ${marker}` : `Kavya ${marker}`;
    const id = await applyThroughPublicFlow(appUrl, mobile, {
      name,
      revenue_district: 'Salem',
      assembly_constituency: 'Attur',
    });
    const appliedWith = (await latestCode(mobile)) ?? '';
    // The staff list and an export find them (the search index has caught up) before the withdrawal.
    await expect.poll(() => searched(marker), { timeout: 20_000 }).toEqual({ ids: [id], exported: 1 });

    let usedInBrowser = '';
    const context = await browser.newContext({ viewport: viewports.phone, acceptDownloads: true, locale: 'en-US' });
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
    }, language);
    const page = await context.newPage();
    try {
      await page.goto(appUrl);
      usedInBrowser = await proveNumber(page, language, mobile, appliedWith);
      await page.getByRole('button', { name: s.me.open, exact: true }).click();
      const panel = page.getByRole('region', { name: s.me.title });
      await panel.getByRole('heading', { level: 2, name: s.me.title }).waitFor();
      const row = (label: string) =>
        panel.locator('.my-application-row', { has: page.getByText(label, { exact: true }) }).locator('dd');
      expect(await row(s.form.name).innerText()).toBe(name);
      expect(await row(s.form.district).innerText()).toBe(language === 'ta' ? 'சேலம்' : 'Salem');
      expect(await row(s.me.fields.phone_number).innerText()).toBe(`+91 ${mobile}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await checkWidths(page, `my-application-${language}`);

      // A copy: the data as held, and a PDF whose first page is drawn (Tamil shaped by the browser).
      const json = JSON.parse(readFileSync(await download(page, s.me.copy.json), 'utf8')) as MyApplication;
      expect(json.application).toMatchObject({ id, name, phone_number: expect.stringContaining(mobile) as unknown });
      expect(json.history[0]?.status).toBe('pending');
      const pdf = await download(page, s.me.copy.pdf);
      expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(inkLines(await rasterisePdf(pdf, 72), 2).length).toBeGreaterThan(20);
      await pdfPagePng(pdf, 100, join(screenshotsDir, `my-application-${language}-pdf`));

      // The language switch turns every line at once, mid-flow.
      await page.getByRole('button', { name: texts[other].language[other], exact: true }).click();
      const o = texts[other];
      await page.getByRole('heading', { level: 2, name: o.me.title }).waitFor();
      expect(await page.getByText(o.me.withdraw.heading, { exact: true }).count()).toBe(1);
      expect(await page.getByText(s.me.withdraw.heading, { exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: s.language[language], exact: true }).click();

      // One confirmation, then nothing is left.
      await page.getByRole('button', { name: s.me.withdraw.button, exact: true }).click();
      await page.getByRole('button', { name: s.me.withdraw.confirm, exact: true }).click();
      await page.getByRole('status').filter({ hasText: s.me.withdraw.done }).waitFor();
      // The confirmation replaces the step: no "already registered" above it, no card offer.
      expect(await page.getByText(texts.en.errors.ALREADY_REGISTERED, { exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: s.myCard.get, exact: true }).count()).toBe(0);
      await screenshot(page, `my-application-${language}-withdrawn-360`);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await page.reload();
      expect(await page.getByLabel(s.step1.mobileLabel, { exact: true }).inputValue()).toBe('');
    } finally {
      await context.close();
    }

    expect((await staff(`/api/admin/applications/${id}`)).status).toBe(404);
    await expect.poll(() => searched(marker), { timeout: 20_000 }).toEqual({ ids: [], exported: 0 });
    await expect
      .poll(
        async () =>
          (await webhookDeliveries(appUrl)).some((d) => d.body.event === 'deleted' && d.body.application_id === id),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);

    // The same number applies again, as anyone new.
    await setClockOffset(122_000);
    try {
      const sent = await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
      expect(sent.status).toBe(200);
    } finally {
      await setClockOffset(0);
    }
    const verified = await post(appUrl, '/api/otp/verify', { mobile, code: await newCode(mobile, usedInBrowser) });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const again = await post(appUrl, '/api/applications', submitBody(String(verified.body.verificationToken)));
    expect(again.status).toBe(201);
  });
});
