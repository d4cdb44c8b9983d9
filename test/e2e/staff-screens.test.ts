/// <reference lib="dom" />
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { districts } from '../../rules/districts';
import { en } from '../../web/src/i18n/en';
import { staffEn } from '../../web/src/i18n/staff-en';
import { staffTa } from '../../web/src/i18n/staff-ta';
import { ta } from '../../web/src/i18n/ta';
import {
  hasHorizontalOverflow,
  launchChromium,
  platformFonts,
  screenshot,
  viewports,
  wordsBrokenAcrossLines,
} from '../support/browser';
import {
  importRecords,
  type LegacyRecord,
  randomMarker,
  randomMobile,
  readLocalEndpoints,
} from '../support/staff-data';
import { createStaffByCommand, ensureUser } from '../support/staff-users';
import { passSecondFactor } from '../support/staff-browser';

// Every staff screen at 360, 768 and 1280 px in English and Tamil, against `npm start`:
// sign-in, a new password, no access, the dashboard (with the bulk bar, a row's
// details and the erase dialog), the Reports page, the Staff page (a member's change and
// the reset dialog) and an unknown staff path. Each
// must fit its width (no sideways scroll of the page), keep every tile label, badge,
// heading cell and button word whole, and show the dashboard's Details buttons. And
// Tamil names drawn with the self-hosted Tamil font in the English staff area, on a
// machine with no Tamil font of its own (this one: `fc-list :lang=ta` is empty).

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
const admin = { email: 'admin@example.com', password: 'Admin-Password-123!' };
const texts = { en: { ...staffEn, common: en }, ta: { ...staffTa, common: ta } } as const;
type Language = keyof typeof texts;
const widths = { 360: viewports.phone, 768: viewports.tablet, 1280: viewports.desktop } as const;
type Width = keyof typeof widths;

const marker = randomMarker();
// Six days of their own, long ago: the Reports page shows this file's rows only.
const windowFrom = '2024-02-05';
const windowTo = '2024-02-10';
// Each name ends with the marker as a word of its own: the dashboard's search finds a
// name by the start of its words (issue 18), so searching the marker shows this file's rows.
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const tamilName = `கயல்விழி செந்தில்குமரன் ${surname}`;
const names = [
  tamilName,
  ...[
    'Venkatalakshmi Ramasubramanian',
    'அன்புச்செல்வி இராமலிங்கம்',
    'Arun Kumar',
    'முத்துக்குமார் பாலசுப்பிரமணியன்',
    'Meenakshi Sundareswaran Pillai',
  ].map((name) => `${name} ${surname}`),
];
const longDistricts = ['Tiruvannamalai', 'Kanniyakumari', 'Ramanathapuram', 'Chengalpattu'] as const;
const statuses = ['pending', 'under_review', 'approved', 'rejected'] as const;

/** What a reader sees as one word must not wrap inside itself: "Pendi/ng". */
const wholeWords = '.stat-label, .status-badge, th, .staff-nav-link, .button, .language-switch-button, .role-badge';

let browser: Browser;
let temporaryPassword: string;
const viewerEmail = `viewer.${marker}@example.org`;
const nobody = { email: `nobody.${marker}@example.org`, password: 'Nobody-Password-7!', groups: [] };

beforeAll(async () => {
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(dataDir);
  const records: LegacyRecord[] = names.map((name, i) => {
    const district = districts.find((d) => d.en === longDistricts[i % longDistricts.length])!;
    return {
      id: `e2e-screens-${marker}-${i}`,
      phone_number: `91${randomMobile()}`,
      name,
      email: `applicant${i}.${marker}@example.org`,
      gender: i % 2 ? 'Male' : 'Female',
      date_of_birth: '2002-08-15',
      revenue_district: district.en,
      education: 'Engineering',
      occupation: 'Student',
      motivation: `Screens row ${i}: to serve the students of ${district.en}.`,
      application_status: statuses[i % statuses.length]!,
      // 10:00 IST plus a minute a row: the newest first is the last one.
      submitted_at: new Date(Date.parse(`${windowFrom}T04:30:00.000Z`) + i * 86_400_000 + i * 60_000).toISOString(),
      is_already_member: i % 2 ? 'true' : 'false',
      want_to_volunteer: '',
      want_to_join_and_volunteer: '',
    };
  });
  expect(await importRecords(endpoints, records)).toMatchObject({ imported: names.length, rejected: [] });

  // A viewer who has not yet set a password (the new-password screen), and a user in
  // no staff group (the no-access screen).
  temporaryPassword = await createStaffByCommand(dataDir, viewerEmail, 'viewer');
  await ensureUser(endpoints, nobody);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly s: (typeof texts)[Language];
}

async function open(language: Language, width: Width, path: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: widths[width], locale: 'en-IN', reducedMotion: 'reduce' });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  const page = await context.newPage();
  await page.goto(`${appUrl}${path}`);
  const s = texts[language];
  await page.getByRole('heading', { level: 1, name: s.login.title }).waitFor();
  return { page, context, s };
}

async function signIn({ page, s }: Opened, user: { email: string; password: string }): Promise<void> {
  await page.getByLabel(s.login.email, { exact: true }).fill(user.email);
  await page.getByLabel(s.login.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: s.login.login, exact: true }).click();
  await passSecondFactor(page, s, user.email);
}

/** The screen as it is now: a screenshot to look at, no sideways scroll, no word broken in two. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, name);
  if (await hasHorizontalOverflow(page)) expect.fail(`${name}: the page scrolls sideways: ${await sticksOut(page)}`);
  expect(await wordsBrokenAcrossLines(page, wholeWords), `${name}: words broken across lines`).toEqual([]);
}

/** The outermost elements past the window's right edge, as tag.class and right edge: what widens the page. */
async function sticksOut(page: Page): Promise<string> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = Array.from(document.querySelectorAll('body *')).filter(
      (e) => e.getBoundingClientRect().right > width + 0.5,
    );
    return out
      .filter((e) => !out.includes(e.parentElement!))
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`)
      .join(', ');
  });
}

const scrollsSideways = (box: Locator) => box.evaluate((e) => e.scrollWidth > e.clientWidth);

/** Names of the Details buttons that are not wholly in view (cut by the window or by the table's box). */
async function detailsOutOfView(page: Page): Promise<string[]> {
  return page.locator('.col-details .button').evaluateAll((buttons) =>
    buttons
      .filter((button) => {
        const box = button.getBoundingClientRect();
        const frame = button.closest('.table-scroll')!.getBoundingClientRect();
        return box.left < Math.max(0, frame.left) || box.right > Math.min(window.innerWidth, frame.right);
      })
      .map((button) => button.getAttribute('aria-label') ?? '?'),
  );
}

/** The dashboard narrowed to this file's applications through the search box: a search term is never in a URL. */
async function showOurs({ page, s }: Opened): Promise<void> {
  await page.getByRole('heading', { level: 1, name: s.dashboard.title }).waitFor();
  const form = page.getByRole('search', { name: s.filters.label });
  await form.getByLabel(s.filters.search, { exact: true }).fill(marker);
  await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
}
const reportsPath = `/admin/reports?from=${windowFrom}&to=${windowTo}`;

describe('every staff screen fits 360, 768 and 1280 px in English and Tamil', () => {
  for (const language of ['en', 'ta'] as const) {
    for (const width of [360, 768, 1280] as const) {
      const tag = `${language}-${width}`;

      it(`sign-in, new password, no access (${tag})`, async () => {
        const o = await open(language, width, '/admin');
        await checkScreen(o.page, `screens-login-${tag}`);
        await signIn(o, { email: admin.email, password: 'Not-The-Password-1!' });
        await o.page.getByRole('alert').first().waitFor();
        await checkScreen(o.page, `screens-login-error-${tag}`);
        await o.context.close();

        const v = await open(language, width, '/admin');
        await signIn(v, { email: viewerEmail, password: temporaryPassword });
        await v.page.getByRole('heading', { level: 1, name: v.s.newPassword.title }).waitFor();
        await checkScreen(v.page, `screens-new-password-${tag}`);
        await v.context.close();

        const n = await open(language, width, '/admin');
        await signIn(n, nobody);
        await n.page.getByRole('heading', { level: 1, name: n.s.noAccess.title }).waitFor();
        await checkScreen(n.page, `screens-no-access-${tag}`);
        await n.context.close();
      });

      it(`dashboard, bulk bar, details, erase dialog, not found (${tag})`, async () => {
        const o = await open(language, width, '/admin');
        const { page, s } = o;
        await signIn(o, admin);
        await showOurs(o);
        await expect.poll(() => page.getByTestId('application-row').count(), { timeout: 15_000 }).toBe(names.length);
        await expect.poll(() => page.getByTestId('stat-total').locator('.stat-value').innerText()).not.toBe('…');
        await checkScreen(page, `screens-dashboard-${tag}`);
        expect(await detailsOutOfView(page), `${tag}: Details buttons out of view`).toEqual([]);
        // From 768 px the whole table fits: nothing to scroll sideways for, even in its own box.
        if (width >= 768)
          expect(await scrollsSideways(page.getByTestId('applications-table').locator('..'))).toBe(false);

        await page.getByRole('checkbox', { name: s.table.selectRow.replace('{{name}}', tamilName) }).check();
        await page.getByTestId('bulk-bar').waitFor();
        await checkScreen(page, `screens-bulk-${tag}`);
        await page.getByRole('checkbox', { name: s.table.selectRow.replace('{{name}}', tamilName) }).uncheck();

        await page.getByRole('button', { name: s.table.detailsOf.replace('{{name}}', tamilName), exact: true }).click();
        await page.getByTestId('audit-trail').or(page.getByText(s.audit.empty)).first().waitFor();
        await checkScreen(page, `screens-details-${tag}`);

        await page.getByRole('button', { name: s.review.erase, exact: true }).click();
        await page.getByTestId('erase-dialog').waitFor();
        await checkScreen(page, `screens-erase-dialog-${tag}`);
        await page.getByRole('button', { name: s.erase.cancel, exact: true }).click();
        await page.getByTestId('erase-dialog').waitFor({ state: 'detached' });

        await page.goto(`${appUrl}/admin/no-such-page`);
        await page.getByRole('heading', { level: 1, name: s.common.notFound.title }).waitFor();
        await checkScreen(page, `screens-not-found-${tag}`);
        await o.context.close();
      });

      it(`reports (${tag})`, async () => {
        const o = await open(language, width, reportsPath);
        const { page, s } = o;
        await signIn(o, admin);
        await page.getByRole('heading', { level: 1, name: s.reports.title }).waitFor();
        await page.getByTestId('report-body').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
        await expect.poll(() => page.getByTestId('raw-table').locator('tbody tr').count()).toBe(names.length);
        await checkScreen(page, `screens-reports-${tag}`);
        await o.context.close();
      });

      it(`staff page, a change and the reset dialog (${tag})`, async () => {
        const o = await open(language, width, '/admin/staff');
        const { page, s } = o;
        await signIn(o, admin);
        await page.getByRole('heading', { level: 1, name: s.staffAdmin.title }).waitFor();
        await expect.poll(() => page.getByTestId('staff-member').count(), { timeout: 15_000 }).toBeGreaterThan(1);
        // The districts' checkboxes of the invitation (a coordinator by default) are open.
        await checkScreen(page, `screens-staff-${tag}`);
        // A member other than the admin (no actions on oneself), by email: the card loses its buttons while edited.
        const withActions = page
          .getByTestId('staff-member')
          .filter({ has: page.getByRole('button', { name: s.staffAdmin.edit }) });
        const email = await withActions.first().locator('.staff-member-email').innerText();
        const other = page.getByTestId('staff-member').filter({ hasText: email });
        await other.first().getByRole('button', { name: s.staffAdmin.edit, exact: true }).click();
        await checkScreen(page, `screens-staff-edit-${tag}`);
        await other.first().getByRole('button', { name: s.staffAdmin.cancel, exact: true }).click();
        await other.first().getByRole('button', { name: s.staffAdmin.resetMfa, exact: true }).click();
        await page.getByTestId('reset-dialog').waitFor();
        await checkScreen(page, `screens-staff-reset-${tag}`);
        await page.getByTestId('reset-dialog').getByRole('button', { name: s.staffAdmin.cancel, exact: true }).click();
        await page.getByTestId('reset-dialog').waitFor({ state: 'detached' });
        await o.context.close();
      });
    }
  }
});

describe('Tamil names in the English staff area', () => {
  it('are drawn with the self-hosted Tamil font in the table, the details, the dialog and the raw data', async () => {
    const o = await open('en', 1280, '/admin');
    const { page, s } = o;
    await signIn(o, admin);
    await showOurs(o);
    const name = page.locator('.row-name', { hasText: tamilName });
    await name.waitFor();
    const expectTamilFont = async (element: Locator, what: string) => {
      // The face is fetched once Tamil text is laid out (font-display: swap): until it
      // arrives, a loaded machine draws the fallback. Measured once the page's fonts
      // settle and the webfont draws the element, within 10 s; never, and it fails.
      await page.evaluate(() => document.fonts.ready);
      await expect
        .poll(
          async () => (await platformFonts(page, element)).some((f) => f.familyName.startsWith('Noto Sans Tamil')),
          {
            timeout: 10_000,
          },
        )
        .toBe(true)
        .catch(() => undefined);
      const fonts = await platformFonts(page, element);
      // Every Tamil glyph from the webfont: none left to a system font (boxes here).
      const tamil = fonts.find((f) => f.familyName.startsWith('Noto Sans Tamil'));
      expect(tamil, `${what}: ${JSON.stringify(fonts)}`).toMatchObject({ isCustomFont: true });
      const letters = [...(await element.innerText())].filter((c) => /[\u0B80-\u0BFF]/u.test(c));
      expect(tamil!.glyphCount, `${what}: ${JSON.stringify(fonts)}`).toBeGreaterThanOrEqual(letters.length / 2);
    };
    await expectTamilFont(name, 'the table');
    // Latin text keeps the system font: the Tamil face covers Tamil letters only.
    const latin = await platformFonts(page, page.getByRole('heading', { level: 1 }));
    expect(latin.filter((f) => f.familyName.startsWith('Noto Sans Tamil'))).toEqual([]);
    const tamilFaceLoaded = () =>
      page.evaluate(() => {
        let loaded = false;
        document.fonts.forEach((f) => {
          if (f.family.replace(/"/g, '') === 'Noto Sans Tamil' && f.status === 'loaded') loaded = true;
        });
        return loaded;
      });
    expect(await tamilFaceLoaded()).toBe(true);

    await page.getByRole('button', { name: s.table.detailsOf.replace('{{name}}', tamilName), exact: true }).click();
    await page.getByTestId('audit-trail').or(page.getByText(s.audit.empty)).first().waitFor();
    await page.getByRole('button', { name: s.review.erase, exact: true }).click();
    await page.getByTestId('erase-dialog').waitFor();
    await expectTamilFont(page.getByTestId('erase-dialog').locator('.dialog-text').first(), 'the erase dialog');
    await page.getByRole('button', { name: s.erase.cancel, exact: true }).click();

    await page.goto(`${appUrl}${reportsPath}`);
    const cell = page.getByTestId('raw-table').locator('td', { hasText: tamilName });
    await cell.waitFor({ timeout: 15_000 });
    await expectTamilFont(cell, 'the raw data');
    await screenshot(page, 'screens-tamil-names-en-reports');
    await o.context.close();
  });
});
