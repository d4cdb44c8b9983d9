/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { districts } from '../../rules/districts';
import { applicationExportColumns } from '../../rules/csv';
import { istDay } from '../../rules/ist';
import type { ApplicationRow, ListResponse } from '../../rules/staff-api';
import { staffEn } from '../../web/src/i18n/staff-en';
import { staffTa } from '../../web/src/i18n/staff-ta';
import { hasHorizontalOverflow, launchChromium, screenshot, seriousAxeViolations } from '../support/browser';
import { sampleApplication } from '../support/public-flow';
import {
  applyThroughPublicFlow,
  importRecords,
  type LegacyRecord,
  randomMarker,
  randomMobile,
  readLocalEndpoints,
} from '../support/staff-data';
import { createStaffByCommand, ensureUser } from '../support/staff-users';
import { signIn as cognitoSignIn } from '../support/tokens';
import { passSecondFactor } from '../support/staff-browser';

// The staff area in Chromium against `npm start`: sign-in (the seeded admin, and a
// viewer made by the staff command who must set a new password), the dashboard's
// filters, search, date range, page size and pager checked against data this file
// creates (through the public flow and the import command's core; a random surname
// isolates it from other files' data), review, erasure, the CSV export, logout, and a
// look at every screen at 1280 and 768 px in English and Tamil.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
const admin = { email: 'admin@example.com', password: 'Admin-Password-123!' };
const texts = { en: staffEn, ta: staffTa } as const;
type Language = keyof typeof texts;
const viewports = { 1280: { width: 1280, height: 800 }, 768: { width: 768, height: 1024 } } as const;

const marker = randomMarker();
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const statuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
const importDistricts = ['Chennai', 'Madurai', 'Coimbatore'] as const;
const firstNames = ['Arun', 'Meena', 'Karthik', 'Priya', 'Senthil'];

let browser: Browser;
let endpoints: ReturnType<typeof readLocalEndpoints>;
let statsBefore: Stats;
/** Every application this file made, as the API shows it, newest first (kept up to date by the tests). */
let made: ApplicationRow[] = [];

interface Stats {
  total: number;
  pending: number;
  under_review: number;
  approved: number;
  rejected: number;
}

async function tokenFor(user: { email: string; password: string }): Promise<string> {
  return cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, user);
}

async function api(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${appUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function listMine(token: string): Promise<ApplicationRow[]> {
  const { status, body } = await api('/api/admin/applications/search', token, {
    method: 'POST',
    body: { filters: { q: marker }, pageSize: 100 },
  });
  expect(status).toBe(200);
  return (body as ListResponse).items;
}

const newestFirst = (rows: ApplicationRow[]) => [...rows].sort((a, b) => b.submitted_at.localeCompare(a.submitted_at));
const namesOf = (rows: ApplicationRow[]) => newestFirst(rows).map((r) => r.name);
const dayOf = (row: ApplicationRow) => istDay(new Date(row.submitted_at));

beforeAll(async () => {
  browser = await launchChromium();
  endpoints = readLocalEndpoints(dataDir);
  const token = await tokenFor(admin);
  statsBefore = (await api('/api/admin/stats', token)).body as Stats;

  // Three applicants through the public flow (pending, submitted now)...
  const publicOnes = [
    { name: `Kavya ${surname}`, email: `kavya.${marker}@example.com`, district: 'Madurai' },
    { name: `Arjun ${surname}`, email: `arjun.${marker}@example.com`, district: 'Chennai' },
    { name: `Divya ${surname}`, email: '', district: 'Salem' },
  ];
  for (const person of publicOnes) {
    const district = districts.find((d) => d.en === person.district)!;
    await applyThroughPublicFlow(
      appUrl,
      randomMobile(),
      sampleApplication({
        name: person.name,
        email: person.email,
        revenue_district: district.en,
        assembly_constituency: district.constituencies[0]!.en,
      }),
    );
  }

  // ...and 27 older ones through the import command's core: every status and three
  // districts, one a day from 1 March 2025 at 10:00 IST, one of them at 00:30 IST (the
  // day before in UTC), and one whose name a spreadsheet would run as a formula.
  const records: LegacyRecord[] = Array.from({ length: 27 }, (_, i) => {
    const submitted = i === 10 ? '2025-03-10T19:00:00.000Z' : new Date(Date.UTC(2025, 2, 1 + i, 4, 30)).toISOString();
    return {
      id: `e2e-${marker}-${i}`,
      phone_number: `91${randomMobile()}`,
      name: i === 5 ? `=HYPERLINK("x") ${surname}` : `${firstNames[i % firstNames.length]} ${surname} ${i}`,
      email: i % 3 === 0 ? '' : `person${i}.${marker}@example.org`,
      gender: i % 2 ? 'Male' : 'Female',
      date_of_birth: '2001-01-15',
      revenue_district: importDistricts[i % 3]!,
      education: 'Law',
      occupation: 'Student',
      motivation: `Imported row ${i}, "quoted", with a comma.`,
      application_status: statuses[i % 4]!,
      submitted_at: submitted,
      is_already_member: i % 2 ? 'true' : 'false',
      want_to_volunteer: '',
      want_to_join_and_volunteer: '',
    };
  });
  const summary = await importRecords(endpoints, records);
  expect(summary).toMatchObject({ imported: 27, rejected: [] });

  // The search reads an index the applications stream keeps: it catches up within a moment.
  made = await listMine(token);
  for (let i = 0; i < 80 && made.length !== 30; i++) {
    await new Promise((r) => setTimeout(r, 250));
    made = await listMine(token);
  }
  expect(made).toHaveLength(30);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------
// Page helpers

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly s: (typeof texts)[Language];
}

async function open(language: Language = 'en', width: keyof typeof viewports = 1280): Promise<Opened> {
  const context = await browser.newContext({ viewport: viewports[width], locale: 'en-IN', acceptDownloads: true });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  const page = await context.newPage();
  await page.goto(`${appUrl}/admin`);
  await page.getByRole('heading', { level: 1, name: texts[language].login.title }).waitFor();
  return { page, context, s: texts[language] };
}

async function login(o: Opened, user: { email: string; password: string }): Promise<void> {
  await o.page.getByLabel(o.s.login.email, { exact: true }).fill(user.email);
  await o.page.getByLabel(o.s.login.password, { exact: true }).fill(user.password);
  await o.page.getByRole('button', { name: o.s.login.login, exact: true }).click();
  await passSecondFactor(o.page, o.s, user.email);
}

async function openDashboard(language: Language = 'en', width: keyof typeof viewports = 1280): Promise<Opened> {
  const o = await open(language, width);
  await login(o, admin);
  await o.page.getByRole('heading', { level: 1, name: o.s.dashboard.title }).waitFor();
  return o;
}

const pager = (page: Page) => page.getByTestId('pager-text').innerText();
const rowNames = (page: Page) => page.locator('[data-testid="application-row"] .row-name').allInnerTexts();
const pagerFor = (s: Opened['s'], page: number, pages: number, total: number) =>
  s.pager.text
    .replace('{{page}}', String(page))
    .replace('{{pages}}', String(pages))
    .replace('{{total}}', total.toLocaleString('en-IN'));

interface Filters {
  q?: string;
  status?: string;
  district?: string;
  from?: string;
  to?: string;
}

async function setFilters({ page, s }: Opened, filters: Filters): Promise<void> {
  const form = page.getByRole('search', { name: s.filters.label });
  await form.getByLabel(s.filters.search, { exact: true }).fill(filters.q ?? '');
  await form.getByLabel(s.filters.status, { exact: true }).selectOption(filters.status ?? '');
  await form.getByLabel(s.filters.district, { exact: true }).selectOption(filters.district ?? '');
  await form.getByLabel(s.filters.from, { exact: true }).fill(filters.from ?? '');
  await form.getByLabel(s.filters.to, { exact: true }).fill(filters.to ?? '');
  await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
}

/** The rows and the pager show exactly the expected applications (all on one page). */
async function expectRows(o: Opened, expected: ApplicationRow[], pageSize = 50): Promise<void> {
  const names = namesOf(expected);
  if (names.length === 0) {
    await o.page.getByTestId('empty-state').waitFor();
    expect(await o.page.getByTestId('empty-state').innerText()).toContain(o.s.table.emptyTitle);
  } else {
    await expect.poll(() => rowNames(o.page), { timeout: 10_000 }).toEqual(names);
  }
  await expect
    .poll(() => pager(o.page))
    .toBe(pagerFor(o.s, 1, Math.max(1, Math.ceil(names.length / pageSize)), names.length));
}

async function checkScreen(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, name);
  expect(await hasHorizontalOverflow(page), `${name}: the page scrolls sideways`).toBe(false);
  expect(await seriousAxeViolations(page), name).toEqual([]);
}

const detailsButton = (page: Page, name: string) =>
  page.getByRole('button', { name: `Details of ${name}`, exact: true });
const rowOf = (page: Page, name: string) =>
  page.getByTestId('application-row').filter({ has: page.locator('.row-name', { hasText: name }) });
const byName = (name: string) => made.find((r) => r.name === name)!;
const byId = (id: string) => made.find((r) => r.id === id)!;

// ---------------------------------------------------------------------------------

describe('staff sign-in', () => {
  for (const language of ['en', 'ta'] as const) {
    for (const width of [1280, 768] as const) {
      it(`shows the login screen (${language}, ${width} px)`, async () => {
        const { page, context } = await open(language, width);
        await checkScreen(page, `staff-login-${language}-${width}`);
        await context.close();
      });
    }
  }

  for (const language of ['en', 'ta'] as const) {
    it(`refuses a wrong password and an unknown email with the same translated banner (${language})`, async () => {
      // cognito-local answers "Invalid password" to the one and "User not authorized" to the
      // other: shown as they are, they would tell which staff emails exist.
      const banners: string[] = [];
      for (const credentials of [
        { email: admin.email, password: 'Not-The-Password-1!' },
        { email: `nobody-${marker}@example.org`, password: 'Not-The-Password-1!' },
      ]) {
        const o = await open(language);
        await login(o, credentials);
        const alert = o.page.getByRole('alert');
        await alert.waitFor();
        banners.push((await alert.innerText()).trim());
        expect(await o.page.getByRole('button', { name: o.s.login.login }).isEnabled()).toBe(true);
        if (banners.length === 1) await screenshot(o.page, `staff-login-failed-${language}-1280`);
        await o.context.close();
      }
      expect(banners).toEqual([texts[language].login.wrongCredentials, texts[language].login.wrongCredentials]);
      if (language === 'ta') expect(banners[0]).not.toMatch(/[A-Za-z]/);
    });
  }
});

describe('dashboard', () => {
  let o: Opened;
  beforeAll(async () => {
    o = await openDashboard();
  });
  afterAll(() => o?.context.close());

  it('signs the seeded admin in and shows who is signed in, with the role', async () => {
    expect(await o.page.getByTestId('staff-email').innerText()).toBe(admin.email);
    expect(await o.page.getByTestId('staff-role').innerText()).toBe(o.s.session.role.admin);
    expect(await o.page.getByRole('link', { name: o.s.nav.reports }).getAttribute('href')).toBe('/admin/reports');
    await o.page.getByTestId('applications-table').waitFor();
    expect(await seriousAxeViolations(o.page)).toEqual([]);
  });

  it('counts this file’s applications on the total and status cards', async () => {
    const mine = (status?: string) => made.filter((r) => !status || r.application_status === status).length;
    const expected: Stats = {
      total: statsBefore.total + mine(),
      pending: statsBefore.pending + mine('pending'),
      under_review: statsBefore.under_review + mine('under_review'),
      approved: statsBefore.approved + mine('approved'),
      rejected: statsBefore.rejected + mine('rejected'),
    };
    // The rollups follow the applications' stream: the API catches up, then the cards show it.
    const token = await tokenFor(admin);
    await expect.poll(async () => (await api('/api/admin/stats', token)).body, { timeout: 20_000 }).toEqual(expected);
    await o.page.reload();
    const card = (id: string) => o.page.getByTestId(id).locator('.stat-value').innerText();
    await expect.poll(() => card('stat-total')).toBe(expected.total.toLocaleString('en-IN'));
    for (const status of statuses) expect(await card(`stat-${status}`)).toBe(expected[status].toLocaleString('en-IN'));
  });

  it('shows the applications submitted through the public flow', async () => {
    await setFilters(o, { q: marker });
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 1, 3, 30));
    // The rows render as the page settles (on a busy machine, a moment after the pager).
    await expect
      .poll(async () => (await rowNames(o.page)).slice(0, 3).sort())
      .toEqual([`Arjun ${surname}`, `Divya ${surname}`, `Kavya ${surname}`]);
    // The search term stays out of the address (CloudFront logs every URL it serves).
    expect(o.page.url()).not.toContain(marker);
  });

  it('narrows exactly by page size, search, status, district and date range', async () => {
    // Rows per page: every one of the 30 on one page, newest first.
    await o.page.getByLabel(o.s.table.rowsPerPage, { exact: true }).selectOption('50');
    await expectRows(o, made);
    expect(new URL(o.page.url()).searchParams.get('size')).toBe('50');
    await o.page.getByLabel(o.s.table.rowsPerPage, { exact: true }).selectOption('20');
    await expect.poll(() => rowNames(o.page)).toEqual(namesOf(made).slice(0, 20));
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 1, 2, 30));
    await o.page.getByLabel(o.s.table.rowsPerPage, { exact: true }).selectOption('50');
    await expectRows(o, made);

    // Search: by the whole email in another case (part of an email finds nothing since
    // issue 18), by the whole number and by its last digits.
    const kavya = byName(`Kavya ${surname}`);
    expect(kavya.email).toBe(`kavya.${marker}@example.com`);
    await setFilters(o, { q: `KAVYA.${marker.toUpperCase()}@Example.COM` });
    await expectRows(o, [kavya]);
    await setFilters(o, { q: kavya.phone_number.slice(2) });
    await expectRows(o, [kavya]);
    await setFilters(o, { q: kavya.phone_number.slice(-6) });
    await expect.poll(() => rowNames(o.page), { timeout: 10_000 }).toContain(kavya.name);

    // Status, district, both, within the search.
    await setFilters(o, { q: marker, status: 'approved' });
    await expectRows(
      o,
      made.filter((r) => r.application_status === 'approved'),
    );
    await setFilters(o, { q: marker, district: 'Madurai' });
    await expectRows(
      o,
      made.filter((r) => r.revenue_district === 'Madurai'),
    );
    await setFilters(o, { q: marker, status: 'pending', district: 'Chennai' });
    await expectRows(
      o,
      made.filter((r) => r.application_status === 'pending' && r.revenue_district === 'Chennai'),
    );

    // IST days, the end day whole: 00:30 IST on 11 March is 10 March in UTC.
    await setFilters(o, { q: marker, from: '2025-03-11', to: '2025-03-14' });
    const inRange = made.filter((r) => dayOf(r) >= '2025-03-11' && dayOf(r) <= '2025-03-14');
    expect(inRange.map((r) => r.id)).toContain(`e2e-${marker}-10`);
    await expectRows(o, inRange);
    await setFilters(o, { q: marker, from: '2025-03-20' });
    await expectRows(
      o,
      made.filter((r) => dayOf(r) >= '2025-03-20'),
    );
    await setFilters(o, { q: marker, to: '2025-03-05' });
    await expectRows(
      o,
      made.filter((r) => dayOf(r) <= '2025-03-05'),
    );

    // Nothing matches: the empty state.
    await setFilters(o, { q: marker, district: 'Nilgiris' });
    await expectRows(o, []);
    expect(await o.page.getByTestId('empty-state').innerText()).toContain(o.s.table.emptyBody);

    // The address bar holds it all: Back returns to the previous filters.
    await o.page.goBack();
    await expectRows(
      o,
      made.filter((r) => dayOf(r) <= '2025-03-05'),
    );
    expect(new URL(o.page.url()).searchParams.get('to')).toBe('2025-03-05');

    // Reset clears every filter (the page size stays).
    await o.page.getByRole('search').getByRole('button', { name: o.s.filters.reset, exact: true }).click();
    await expect.poll(() => new URL(o.page.url()).search).toBe('?size=50');
  });

  it('pages with Next and Previous, a reload keeps the page and the search, a shared link carries no search term', async () => {
    await o.page.getByLabel(o.s.table.rowsPerPage, { exact: true }).selectOption('10');
    await setFilters(o, { q: marker });
    const names = namesOf(made);
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(0, 10));
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 1, 3, 30));
    expect(await o.page.getByRole('button', { name: o.s.pager.previous }).isDisabled()).toBe(true);

    await o.page.getByRole('button', { name: o.s.pager.next }).click();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(10, 20));
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 2, 3, 30));
    await o.page.getByRole('button', { name: o.s.pager.next }).click();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(20, 30));
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 3, 3, 30));
    expect(await o.page.getByRole('button', { name: o.s.pager.next }).isDisabled()).toBe(true);

    await o.page.getByRole('button', { name: o.s.pager.previous }).click();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(10, 20));
    await o.page.reload();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(10, 20));
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 2, 3, 30));
    await o.page.getByRole('button', { name: o.s.pager.previous }).click();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(0, 10));

    // A link to page 2 opened elsewhere opens the list, without the search: the term
    // lived in this tab's history, never in the address.
    await o.page.goBack();
    await expect.poll(() => rowNames(o.page)).toEqual(names.slice(10, 20));
    const link = o.page.url();
    expect(new URL(link).searchParams.get('page')).toBe('2');
    expect(link).not.toContain(marker);
    const other = await browser.newContext({ viewport: viewports[1280] });
    const second = await other.newPage();
    await second.goto(link);
    await login({ page: second, context: other, s: o.s }, admin);
    await expect.poll(async () => (await rowNames(second)).length).toBeGreaterThan(0);
    expect(await second.getByLabel(o.s.filters.search, { exact: true }).inputValue()).toBe('');
    await other.close();
  });

  it('exports every row matching the filters as CSV, with a progress bar', async () => {
    // Slow the export's page reads a little, to see (and photograph) the progress bar.
    await o.page.route('**/api/admin/applications/search', async (route) => {
      if ((route.request().postDataJSON() as { pageSize?: number }).pageSize === 1000) {
        await new Promise((r) => setTimeout(r, 1500));
      }
      await route.continue();
    });
    await setFilters(o, { q: marker, status: 'pending' });
    const expected = newestFirst(made.filter((r) => r.application_status === 'pending'));
    await expect.poll(() => rowNames(o.page)).toEqual(expected.map((r) => r.name).slice(0, 10));

    const downloading = o.page.waitForEvent('download');
    await o.page.getByRole('button', { name: o.s.export.button, exact: true }).click();
    const bar = o.page.getByRole('progressbar', { name: o.s.export.progressLabel });
    await bar.waitFor();
    await expect.poll(() => bar.getAttribute('aria-valuemax')).toBe(String(expected.length));
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    await screenshot(o.page, 'staff-export-progress-en-1280');
    const download = await downloading;
    await o.page.unroute('**/api/admin/applications/search');

    expect(download.suggestedFilename()).toBe(`applications_export_${istDay(new Date())}.csv`);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n').length).toBeGreaterThan(expected.length);
    const parsed: Record<string, string>[] = parse(text, { bom: true, columns: true });
    expect(Object.keys(parsed[0] ?? {})).toEqual([...applicationExportColumns]);
    expect(parsed.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(parsed.every((r) => r.application_status === 'pending')).toBe(true);
    await o.page.getByText(o.s.export.done_other.replace('{{count}}', String(expected.length))).waitFor();

    // Everything of the search, every field, and the formula guard.
    await setFilters(o, { q: marker });
    const all = o.page.waitForEvent('download');
    await o.page.getByRole('button', { name: o.s.export.button, exact: true }).click();
    const rows: Record<string, string>[] = parse(readFileSync(await (await all).path()), { bom: true, columns: true });
    expect(rows.map((r) => r.id)).toEqual(newestFirst(made).map((r) => r.id));
    const formula = rows.find((r) => r.id === `e2e-${marker}-5`)!;
    expect(formula.name).toBe(`'=HYPERLINK("x") ${surname}`);
    const imported = rows.find((r) => r.id === `e2e-${marker}-1`)!;
    expect(imported).toMatchObject({
      motivation: 'Imported row 1, "quoted", with a comma.',
      is_already_member: 'true',
      education: 'Law',
    });
    // IST with its offset, as the screens show it; the number as text a spreadsheet keeps whole.
    expect(imported.submitted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    expect(Date.parse(imported.submitted_at!)).toBe(Date.parse(byId(imported.id!).submitted_at));
    expect(imported.phone_number).toMatch(/^91 \d{5} \d{5}$/);
  });

  it('changes one status with a note, and the audit trail shows who, when, from, to and the note', async () => {
    const kavya = byName(`Kavya ${surname}`);
    await setFilters(o, { q: kavya.email! });
    await detailsButton(o.page, kavya.name).click();
    const details = o.page.getByTestId('application-details');
    await details.getByText(o.s.audit.empty).waitFor();
    expect(await details.innerText()).toContain(districts.find((d) => d.en === 'Madurai')!.constituencies[0]!.en);

    await details.getByLabel(o.s.review.status, { exact: true }).selectOption('rejected');
    await details.getByLabel(o.s.review.note, { exact: true }).fill('Not a student of a Tamil Nadu college');
    await details.getByRole('button', { name: o.s.review.apply, exact: true }).click();
    await details.getByText(o.s.review.done.replace('{{status}}', o.s.status.rejected)).waitFor();

    const entry = details.getByTestId('audit-trail').locator('li').first();
    await entry.waitFor();
    const text = await entry.innerText();
    expect(text).toContain(o.s.status.pending);
    expect(text).toContain(o.s.status.rejected);
    expect(text).toContain('Not a student of a Tamil Nadu college');
    expect(text).toContain(admin.email);
    await expect.poll(() => rowOf(o.page, kavya.name).locator('.status-badge').innerText()).toBe(o.s.status.rejected);
    expect(await seriousAxeViolations(o.page)).toEqual([]);
    await screenshot(o.page, 'staff-details-audit-en-1280');
    await o.page.setViewportSize(viewports[768]);
    await checkScreen(o.page, 'staff-details-audit-en-768');
    await o.page.setViewportSize(viewports[1280]);

    // The status it already has: the screen says nothing changed, and the trail gains nothing.
    await details.getByLabel(o.s.review.status, { exact: true }).selectOption('rejected');
    await details.getByRole('button', { name: o.s.review.apply, exact: true }).click();
    await details.getByText(o.s.review.unchanged.replace('{{status}}', o.s.status.rejected)).waitFor();
    expect(await details.getByText(o.s.review.done.replace('{{status}}', o.s.status.rejected)).count()).toBe(0);
    expect(await details.getByTestId('audit-trail').locator('li').count()).toBe(1);
    made = made.map((r) => (r.id === kavya.id ? { ...r, application_status: 'rejected' } : r));
  });

  it('changes the status of a selection from the bulk bar', async () => {
    await setFilters(o, { q: marker, status: 'pending' });
    const pending = newestFirst(made.filter((r) => r.application_status === 'pending'));
    await expect.poll(() => rowNames(o.page)).toEqual(pending.map((r) => r.name).slice(0, 10));
    expect(await o.page.getByTestId('bulk-bar').count()).toBe(0);
    const chosen = pending.slice(0, 2);
    for (const row of chosen)
      await o.page.getByRole('checkbox', { name: `Select the application of ${row.name}` }).check();
    const bar = o.page.getByTestId('bulk-bar');
    await bar.waitFor();
    expect(await bar.innerText()).toContain('2 applications selected');
    await bar.getByLabel(staffEn.bulk.status, { exact: true }).selectOption('under_review');
    await bar.getByLabel(staffEn.bulk.note, { exact: true }).fill('Called; documents requested');
    await screenshot(o.page, 'staff-bulk-bar-en-1280');
    await o.page.setViewportSize(viewports[768]);
    await checkScreen(o.page, 'staff-bulk-bar-en-768');
    await o.page.setViewportSize(viewports[1280]);
    await bar.getByRole('button', { name: staffEn.bulk.apply, exact: true }).click();

    await o.page.getByText('Status changed for 2 applications.').waitFor();
    made = made.map((r) => (chosen.some((c) => c.id === r.id) ? { ...r, application_status: 'under_review' } : r));
    await expectRows(
      o,
      made.filter((r) => r.application_status === 'pending'),
      10,
    );
    const token = await tokenFor(admin);
    for (const row of chosen) {
      const { body } = await api(`/api/admin/applications/${row.id}`, token);
      const detail = body as {
        application: ApplicationRow;
        audit: { by: string; from?: string; to?: string; note?: string }[];
      };
      expect(detail.application.application_status).toBe('under_review');
      expect(detail.audit[0]).toMatchObject({
        by: admin.email,
        from: 'pending',
        to: 'under_review',
        note: 'Called; documents requested',
      });
    }
  });

  it('erases an application after a confirmation that names the person', async () => {
    const target = byName(`Meena ${surname} 1`);
    await setFilters(o, { q: marker });
    await o.page.getByLabel(o.s.table.rowsPerPage, { exact: true }).selectOption('50');
    await detailsButton(o.page, target.name).click();
    const details = o.page.getByTestId('application-details');
    await details.getByRole('button', { name: o.s.review.erase, exact: true }).click();
    const dialog = o.page.getByRole('dialog', { name: o.s.erase.title });
    await dialog.waitFor();
    const said = await dialog.innerText();
    expect(said).toContain(target.name);
    expect(said).toContain('cannot be undone');
    expect(await o.page.evaluate(() => document.activeElement?.textContent)).toBe(o.s.erase.cancel);
    await checkScreen(o.page, 'staff-erase-dialog-en-1280');
    await o.page.setViewportSize(viewports[768]);
    await checkScreen(o.page, 'staff-erase-dialog-en-768');
    await o.page.setViewportSize(viewports[1280]);

    // Escape cancels; the second time it is confirmed.
    await o.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await details.getByRole('button', { name: o.s.review.erase, exact: true }).click();
    await dialog.getByRole('button', { name: o.s.erase.confirm, exact: true }).click();
    await o.page.getByText(o.s.erase.done.replace('{{name}}', target.name)).waitFor();
    made = made.filter((r) => r.id !== target.id);
    await expectRows(o, made);

    const token = await tokenFor(admin);
    expect((await api(`/api/admin/applications/${target.id}`, token)).status).toBe(404);
  });

  it('logs out to the login screen', async () => {
    await o.page.getByRole('button', { name: o.s.session.logout, exact: true }).click();
    await o.page.getByRole('heading', { level: 1, name: o.s.login.title }).waitFor();
    await o.page.reload();
    await o.page.getByRole('heading', { level: 1, name: o.s.login.title }).waitFor();
    expect(await o.page.getByTestId('applications-table').count()).toBe(0);
  });
});

describe('a viewer made by the staff command', () => {
  const email = `viewer.${marker}@example.org`;
  const newPassword = 'Viewer-New-Password-7!';

  it('signs in with the temporary password, sets a new one, sees everything and changes nothing', async () => {
    const temporary = await createStaffByCommand(dataDir, email, 'viewer');

    const o = await open();
    await login(o, { email, password: temporary });
    await o.page.getByRole('heading', { level: 1, name: o.s.newPassword.title }).waitFor();
    await checkScreen(o.page, 'staff-new-password-en-1280');
    await o.page.getByLabel(o.s.newPassword.newPassword, { exact: true }).fill(newPassword);
    await o.page.getByLabel(o.s.newPassword.confirm, { exact: true }).fill(newPassword);
    await o.page.getByRole('button', { name: o.s.newPassword.submit, exact: true }).click();
    // MFA is required: the first sign-in enrols an authenticator (test/e2e/staff-mfa.test.ts looks closer).
    await passSecondFactor(o.page, o.s, email);

    await o.page.getByRole('heading', { level: 1, name: o.s.dashboard.title }).waitFor();
    expect(await o.page.getByTestId('staff-email').innerText()).toBe(email);
    expect(await o.page.getByTestId('staff-role').innerText()).toBe(o.s.session.role.viewer);
    await setFilters(o, { q: marker });
    await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 1, Math.ceil(made.length / 10), made.length));
    expect(await o.page.getByRole('checkbox').count()).toBe(0);
    const first = newestFirst(made)[0]!;
    await detailsButton(o.page, first.name).click();
    await o.page.getByTestId('audit-trail').or(o.page.getByText(o.s.audit.empty)).first().waitFor();
    expect(await o.page.getByRole('heading', { name: o.s.review.heading }).count()).toBe(0);
    expect(await o.page.getByRole('button', { name: o.s.review.erase }).count()).toBe(0);

    // The API refuses the viewer too, whatever the screen shows.
    const token = await tokenFor({ email, password: newPassword });
    const change = await api('/api/admin/applications/status', token, {
      method: 'POST',
      body: { ids: [first.id], status: 'approved' },
    });
    expect(change.status).toBe(403);
    expect((await api(`/api/admin/applications/${first.id}`, token, { method: 'DELETE' })).status).toBe(403);

    await o.page.getByRole('button', { name: o.s.session.logout, exact: true }).click();
    await o.page.getByRole('heading', { level: 1, name: o.s.login.title }).waitFor();
    await o.context.close();
  });
});

describe('a signed-in user in no staff group', () => {
  it('is told there is no access, and can log out', async () => {
    const nobody = { email: `nobody.${marker}@example.org`, password: 'Nobody-Password-7!', groups: [] };
    await ensureUser(endpoints, nobody);

    const o = await open();
    await login(o, nobody);
    await o.page.getByRole('heading', { level: 1, name: o.s.noAccess.title }).waitFor();
    expect(await o.page.getByRole('alert').innerText()).toContain(nobody.email);
    expect(await o.page.getByTestId('applications-table').count()).toBe(0);
    await checkScreen(o.page, 'staff-no-access-en-1280');
    await o.page.getByRole('button', { name: o.s.session.logout, exact: true }).click();
    await o.page.getByRole('heading', { level: 1, name: o.s.login.title }).waitFor();
    await o.context.close();
  });
});

describe('the staff screens in English and Tamil', () => {
  for (const language of ['en', 'ta'] as const) {
    for (const width of [1280, 768] as const) {
      it(`fit ${width} px in ${language} with no serious accessibility problem`, async () => {
        const o = await openDashboard(language, width);
        await setFilters(o, { q: marker });
        await expect.poll(() => pager(o.page)).toBe(pagerFor(o.s, 1, Math.ceil(made.length / 10), made.length));
        await checkScreen(o.page, `staff-dashboard-${language}-${width}`);
        const first = newestFirst(made)[0]!;
        await o.page
          .getByRole('button', { name: texts[language].table.detailsOf.replace('{{name}}', first.name), exact: true })
          .click();
        await o.page.getByTestId('audit-trail').or(o.page.getByText(o.s.audit.empty)).first().waitFor();
        await checkScreen(o.page, `staff-details-${language}-${width}`);
        await o.context.close();
      });
    }
  }
});
