/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hasHorizontalOverflow, launchChromium, screenshot, seriousAxeViolations, viewports } from '../support/browser';
import { applicantTexts, latestCode, proveNumber } from '../support/my-application-browser';
import {
  applyThroughPublicFlow,
  randomMarker,
  randomMobile,
  seededAdminApi,
  type staffApi,
} from '../support/staff-data';
import { openStaffPage } from '../support/staff-browser';

// Issue 21's correction in Chromium against `npm start`: on a 360 px phone, a registered
// applicant proves their number, corrects their name and district in their language (the
// switch turns the form at once, keeping what they typed), and "My application" shows the
// corrected values; then the staff area, in the same language, finds them by the new name
// and shows the new values and the audit line "corrected by the applicant" with the fields.

const appUrl = inject('appUrl');
let browser: Browser;
let staff: ReturnType<typeof staffApi>;

beforeAll(async () => {
  browser = await launchChromium();
  staff = await seededAdminApi(appUrl, inject('localDataDir'));
});

afterAll(async () => {
  await browser?.close();
});

describe.each(['ta', 'en'] as const)('Correcting my details in %s', (language) => {
  it('corrects the name and the district on a phone, and staff see the new values and who changed them', async () => {
    const s = applicantTexts[language];
    const other = language === 'ta' ? 'en' : 'ta';
    const mobile = randomMobile();
    const [before, after] = [randomMarker(), randomMarker()];
    const id = await applyThroughPublicFlow(appUrl, mobile, {
      name: `Kavya ${before}`,
      revenue_district: 'Salem',
      assembly_constituency: 'Attur',
    });
    const appliedWith = (await latestCode(appUrl, mobile)) ?? '';

    const context = await browser.newContext({ viewport: viewports.phone, locale: 'en-US' });
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
    }, language);
    const page = await context.newPage();
    try {
      await page.goto(appUrl);
      await proveNumber(page, appUrl, { language, mobile, appliedWith });
      await page.getByRole('button', { name: s.me.open, exact: true }).click();
      const panel = page.getByRole('region', { name: s.me.title });
      await panel.getByRole('heading', { level: 2, name: s.me.title }).waitFor();
      await page.getByRole('button', { name: s.me.correct.open, exact: true }).click();
      const form = page.getByRole('form', { name: s.me.correct.heading });
      const name = form.getByLabel(s.form.name, { exact: true });
      expect(await name.inputValue()).toBe(`Kavya ${before}`);
      await name.fill(`Kavya ${after}`);
      await form.getByLabel(s.form.district, { exact: true }).selectOption('Madurai');
      // The language switch turns the form at once and keeps what was typed.
      await page.getByRole('button', { name: applicantTexts[other].language[other], exact: true }).click();
      const o = applicantTexts[other];
      const turned = page.getByRole('form', { name: o.me.correct.heading });
      expect(await turned.getByLabel(o.form.name, { exact: true }).inputValue()).toBe(`Kavya ${after}`);
      await page.getByRole('button', { name: s.language[language], exact: true }).click();
      // The form's own check: the new district's constituency is still to choose.
      await form.getByRole('button', { name: s.me.correct.save, exact: true }).click();
      await form.getByRole('alert').filter({ hasText: s.me.correct.invalid }).waitFor();
      expect(await form.getByLabel(s.form.constituency, { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await seriousAxeViolations(page)).toEqual([]);
      for (const width of ['phone', 'tablet', 'desktop'] as const) {
        await page.setViewportSize(viewports[width]);
        await page.evaluate(() => document.fonts.ready);
        await screenshot(page, `my-correction-${language}-${viewports[width].width}`);
        expect(await hasHorizontalOverflow(page), `${language} at ${width}`).toBe(false);
      }
      await page.setViewportSize(viewports.phone);
      await form.getByLabel(s.form.constituency, { exact: true }).selectOption('Melur');
      await form.getByRole('button', { name: s.me.correct.save, exact: true }).click();
      await panel.getByRole('status').filter({ hasText: s.me.correct.saved }).waitFor();
      const row = (label: string) =>
        panel.locator('.my-application-row', { has: page.getByText(label, { exact: true }) }).locator('dd');
      await expect.poll(() => row(s.form.name).innerText()).toBe(`Kavya ${after}`);
      expect(await row(s.form.district).innerText()).toBe(language === 'ta' ? 'மதுரை' : 'Madurai');
      await screenshot(page, `my-correction-${language}-saved-360`);
    } finally {
      await context.close();
    }

    // The staff area, in the same language: found by the new name, with the new values and the audit line.
    const st = await openStaffPage(browser, {
      appUrl,
      language,
      viewport: viewports.tablet,
      path: '/admin',
      heading: (t) => t.dashboard.title,
    });
    try {
      const { page: staffPage, s: t } = st;
      const search = staffPage.getByRole('search', { name: t.filters.label });
      await expect
        .poll(
          async () => {
            await search.getByLabel(t.filters.search, { exact: true }).fill(after);
            await search.getByRole('button', { name: t.filters.apply, exact: true }).click();
            return staffPage.locator('[data-testid="application-row"] .row-name').allInnerTexts();
          },
          { timeout: 20_000 },
        )
        .toEqual([`Kavya ${after}`]);
      await staffPage
        .getByRole('button', { name: t.table.detailsOf.replace('{{name}}', `Kavya ${after}`), exact: true })
        .click();
      const trail = staffPage.getByTestId('audit-trail');
      const fields = [t.audit.field.name, t.audit.field.revenue_district, t.audit.field.assembly_constituency];
      await trail.getByText(t.audit.correction.replace('{{fields}}', fields.join(', ')), { exact: true }).waitFor();
      expect(await trail.getByText(t.audit.byApplicant, { exact: true }).count()).toBe(1);
      await screenshot(staffPage, `my-correction-${language}-staff-768`);
      expect(await hasHorizontalOverflow(staffPage)).toBe(false);
    } finally {
      await st.context.close();
    }
    // The old name is found no more.
    const old = await staff<{ items: { id: string }[] }>('/api/admin/applications/search', {
      method: 'POST',
      body: { filters: { q: before }, pageSize: 10 },
    });
    expect(old.body.items.map((item) => item.id)).not.toContain(id);
  });
});
