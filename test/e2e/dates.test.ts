/// <reference lib="dom" />
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { knownDistrictNames } from '../../rules/report';
import { enForm } from '../../web/src/i18n/en-form';
import { en } from '../../web/src/i18n/en';
import { ta } from '../../web/src/i18n/ta';
import { taForm } from '../../web/src/i18n/ta-form';
import { launchChromium, viewports } from '../support/browser';
import { lookAtEveryWidth, openStaffPage, type StaffLanguage } from '../support/staff-browser';
import { otpFor, randomMobile } from '../support/staff-data';

// Dates are typed and shown day first, dd/mm/yyyy, on a browser whose locale would put
// the month first (en-US), in English and Tamil: the dashboard's and the Reports page's
// filters and the public form's date of birth. The Reports page checks its dates before
// asking: From after To is one message and no request, a half-typed date asks nothing,
// and the district filter keeps all 38 districts for a range with no data.

const appUrl = inject('appUrl');
const publicTexts = { en: { ...en, ...enForm }, ta: { ...ta, ...taForm } } as const;
const languages = ['en', 'ta'] as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const openStaff = (language: StaffLanguage, path: string, heading: Parameters<typeof openStaffPage>[1]['heading']) =>
  openStaffPage(browser, { appUrl, language, viewport: viewports.desktop, path, heading, locale: 'en-US' });

/** Report API answers of 400 while the page is open. */
function refusedReportRequests(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    if (response.url().includes('/api/admin/reports') && response.status() === 400) refused.push(response.url());
  });
  return refused;
}

describe.each(languages)('dates on an en-US browser (%s)', (language) => {
  it('the dashboard filters take and show dd/mm/yyyy, and refuse a day that does not exist', async () => {
    const { page, context, s } = await openStaff(language, '/admin', (t) => t.dashboard.title);
    const form = page.getByRole('search', { name: s.filters.label });
    const from = form.getByLabel(s.filters.from, { exact: true });
    const to = form.getByLabel(s.filters.to, { exact: true });
    expect(await from.getAttribute('placeholder')).toBe(s.filters.dateFormat);
    await from.pressSequentially('01032025');
    await to.pressSequentially('14032025');
    expect(await from.inputValue()).toBe('01/03/2025');
    expect(await to.inputValue()).toBe('14/03/2025');
    await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toContain('from=2025-03-01&to=2025-03-14');
    await page.reload();
    await expect.poll(() => form.getByLabel(s.filters.from, { exact: true }).inputValue()).toBe('01/03/2025');
    expect(await to.inputValue()).toBe('14/03/2025');
    await lookAtEveryWidth(page, `dates-dashboard-${language}`);

    // 31 February: one message, and the address (the listing) stays as it was.
    await page.setViewportSize(viewports.desktop);
    await from.fill('');
    await from.pressSequentially('31022025');
    await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
    expect(await form.getByRole('alert').innerText()).toBe(s.filters.dateInvalid);
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).search).toContain('from=2025-03-01&to=2025-03-14');
    await lookAtEveryWidth(page, `dates-dashboard-invalid-${language}`);
    await context.close();
  });

  it('the Reports filters check the dates before asking and keep every district', async () => {
    const { page, context, s } = await openStaff(language, '/admin/reports', (t) => t.reports.title);
    const refused = refusedReportRequests(page);
    const filters = page.getByRole('form', { name: s.reports.filters });
    const from = filters.getByLabel(s.reports.from, { exact: true });
    const to = filters.getByLabel(s.reports.to, { exact: true });
    expect(await from.getAttribute('placeholder')).toBe(s.filters.dateFormat);

    // A range with no data: typed key by key, no request is refused, and all 38 districts stay.
    await from.pressSequentially('01012001');
    await to.pressSequentially('31012001');
    await expect.poll(() => new URL(page.url()).search).toBe('?from=2001-01-01&to=2001-01-31');
    expect(await from.inputValue()).toBe('01/01/2001');
    await expect
      .poll(() => page.getByTestId('raw-total').innerText())
      .toBe(s.reports.matching_other.replace('{{count}}', '0'));
    const districtBoxes = page.getByTestId('district-filter').getByRole('checkbox');
    expect(await districtBoxes.count()).toBe(knownDistrictNames.length);
    expect(knownDistrictNames).toHaveLength(38);
    expect(await page.getByText(s.reports.noDistricts).count()).toBe(0);
    await districtBoxes.first().check();
    await expect.poll(() => new URL(page.url()).search).toContain(`district=${knownDistrictNames[0]}`);
    await districtBoxes.first().uncheck();

    // From after To: one message; no rows error, no "0 applications match", nothing asked.
    await from.fill('');
    await from.pressSequentially('15022001');
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts(), { timeout: 15_000 })
      .toEqual([s.reports.errors.RANGE_INVALID]);
    expect(await page.getByText(s.reports.rowsFailed).count()).toBe(0);
    expect(await page.getByTestId('raw-total').count()).toBe(0);
    expect(await page.getByTestId('report-body').count()).toBe(0);
    await lookAtEveryWidth(page, `dates-reports-range-${language}`);

    // Half a date, left: said under the field; the report is of the last whole date.
    await page.setViewportSize(viewports.desktop);
    await to.fill('');
    await to.pressSequentially('3101');
    await filters.getByLabel(s.reports.from, { exact: true }).focus();
    expect(await filters.getByRole('alert').innerText()).toBe(s.filters.dateInvalid);
    await lookAtEveryWidth(page, `dates-reports-unfinished-${language}`);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('the public form takes the date of birth as dd/mm/yyyy', async () => {
    const s = publicTexts[language];
    const context = await browser.newContext({ viewport: viewports.desktop, locale: 'en-US' });
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
    }, language);
    const page = await context.newPage();
    await page.goto(appUrl);
    const mobile = randomMobile();
    await page.getByLabel(s.step1.mobileLabel, { exact: true }).fill(mobile);
    const send = page.getByRole('button', { name: s.step1.send, exact: true });
    await expect.poll(() => send.isEnabled()).toBe(true);
    await send.click();
    await page.getByLabel(s.step1.otpLabel, { exact: true }).fill(await otpFor(appUrl, mobile));
    await page.getByRole('button', { name: s.step1.verify, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();

    const dob = page.getByLabel(s.form.dateOfBirth, { exact: true });
    expect(await dob.getAttribute('placeholder')).toBe(s.form.dateOfBirthFormat);
    await dob.pressSequentially('14052001');
    expect(await dob.inputValue()).toBe('14/05/2001');
    await dob.blur();
    expect(await dob.getAttribute('aria-invalid')).toBe('false');
    await lookAtEveryWidth(page, `dates-public-dob-${language}`);
    // A day that does not exist is the form's own date message.
    await page.setViewportSize(viewports.desktop);
    await dob.fill('');
    await dob.pressSequentially('31022001');
    await dob.blur();
    await expect.poll(() => dob.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await dob.getAttribute('id')}-error`).innerText()).toBe(s.fieldErrors.INVALID_DATE);
    await context.close();
  });
});
