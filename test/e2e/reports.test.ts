/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { rebuildRollups, rebuildStore } from '../../lambdas/lib/rollups-rebuild';
import { addDays, knownDistrictNames, type ReportRowsResponse, type ReportSummary } from '../../rules/report';
import { istDay } from '../../rules/ist';
import { staffEn } from '../../web/src/i18n/staff-en';
import { staffTa } from '../../web/src/i18n/staff-ta';
import { hasHorizontalOverflow, launchChromium, screenshot, seriousAxeViolations } from '../support/browser';
import {
  importRecords,
  type LegacyRecord,
  randomMarker,
  randomMobile,
  readLocalEndpoints,
  stackDocumentClient,
} from '../support/staff-data';
import { signIn as cognitoSignIn } from '../support/tokens';
import { passSecondFactor } from '../support/staff-browser';

// The Reports page in Chromium against `npm start`: a dataset made through the import
// command's core in a window of six days of its own (40 days ago, so that no other
// file's data falls in it), then the tiles against the report API, every chart drawn,
// a filter matching nothing, live filters, Reset, and the CSV export against the rows
// API. Screenshots at 1280 px in English and Tamil.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
const admin = { email: 'admin@example.com', password: 'Admin-Password-123!' };
const texts = { en: staffEn, ta: staffTa } as const;
type Language = keyof typeof texts;

const marker = randomMarker();
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const statuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
const importDistricts = ['Chennai', 'Madurai', 'Salem', 'Coimbatore'] as const;
const COUNT = 24;
const windowFrom = addDays(istDay(new Date()), -40);
const windowTo = addDays(windowFrom, 5);
const windowQuery = `from=${windowFrom}&to=${windowTo}`;

const chartIds = ['age', 'gender', 'locations', 'member', 'by-day', 'districts', 'status', 'daily-status'] as const;
const pies = ['gender', 'member', 'status'] as const;

let browser: Browser;
let token: string;

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${appUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const summary = (query: string) => api<ReportSummary>(`/api/admin/reports/summary?${query}`);

async function allRows(query: string): Promise<ReportRowsResponse['items']> {
  const items: ReportRowsResponse['items'] = [];
  let cursor: string | undefined;
  do {
    const page = await api<ReportRowsResponse>(
      `/api/admin/reports/rows?${query}&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function rebuild(endpoints: ReturnType<typeof readLocalEndpoints>): Promise<void> {
  const db = stackDocumentClient(endpoints);
  const rollups = endpoints.tableNames.rollups;
  const applications = endpoints.tableNames.applications;
  if (!rollups || !applications) throw new Error('endpoints.json names no rollups or applications table');
  await rebuildRollups(
    { store: rebuildStore(db, rollups), db, applicationsTable: applications, clock: () => new Date() },
    { fenceMs: 0 },
  );
}

beforeAll(async () => {
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(dataDir);
  token = await cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, admin);
  const records: LegacyRecord[] = Array.from({ length: COUNT }, (_, i) => {
    const day = addDays(windowFrom, i % 6);
    // 10:00 IST plus a minute per row (distinct instants, newest-first order is stable).
    const submitted = new Date(Date.parse(`${day}T04:30:00.000Z`) + i * 60_000).toISOString();
    return {
      id: `e2e-reports-${marker}-${i}`,
      phone_number: `91${randomMobile()}`,
      name: i === 3 ? `=SUM(1) ${surname}` : `Person ${surname} ${i}`,
      email: '',
      gender: i % 3 === 0 ? 'Male' : i % 3 === 1 ? 'Female' : '',
      date_of_birth: ['2009-05-01', '2003-01-15', '1995-07-07', '1985-02-02', '1975-03-03', '1960-04-04', ''][i % 7]!,
      revenue_district: importDistricts[Math.floor(i / 6) % 4]!,
      education: 'Law',
      occupation: 'Student',
      motivation: `Reports row ${i}`,
      application_status: statuses[i % 4]!,
      submitted_at: submitted,
      is_already_member: i % 2 ? 'true' : 'false',
      want_to_volunteer: '',
      want_to_join_and_volunteer: '',
    };
  });
  const result = await importRecords(endpoints, records);
  expect(result).toMatchObject({ imported: COUNT, rejected: [] });
  // The rollups follow the table's stream: wait until the report counts every row.
  // The rollups follow the table's stream; the import's documented next step is a
  // rebuild (`npm run rollups:rebuild`), run here through its core when the stream has
  // not counted the rows after a few seconds.
  let counted = 0;
  for (let i = 0; i < 10 && counted !== COUNT; i++) {
    counted = (await summary(windowQuery)).total;
    if (counted !== COUNT) await new Promise((r) => setTimeout(r, 500));
  }
  if (counted !== COUNT) await rebuild(endpoints);
  for (let i = 0; i < 60 && counted !== COUNT; i++) {
    counted = (await summary(windowQuery)).total;
    if (counted !== COUNT) await new Promise((r) => setTimeout(r, 500));
  }
  if (counted !== COUNT) {
    const stats = await api<unknown>('/api/admin/stats');
    const all = await fetch(`${appUrl}/api/admin/reports/summary`, { headers: { authorization: `Bearer ${token}` } });
    throw new Error(`rollups: ${counted} in ${windowQuery}; stats ${JSON.stringify(stats)}; all ${all.status}`);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

// Every context a test opened is closed when it ends, passed or failed: a failed test's
// page left running (a report still drawing) would take the CPU from the next tests.
const opened: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

interface Opened {
  readonly page: Page;
  readonly s: (typeof texts)[Language];
}

async function openReports(language: Language, query = ''): Promise<Opened> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-IN',
    acceptDownloads: true,
    reducedMotion: 'reduce',
  });
  opened.push(context);
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  const page = await context.newPage();
  const s = texts[language];
  await page.goto(`${appUrl}/admin/reports${query ? `?${query}` : ''}`);
  await page.getByLabel(s.login.email, { exact: true }).fill(admin.email);
  await page.getByLabel(s.login.password, { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: s.login.login, exact: true }).click();
  await passSecondFactor(page, s, admin.email);
  await page.getByRole('heading', { level: 1, name: s.reports.title }).waitFor();
  return { page, s };
}

const tile = (page: Page, id: string) => page.getByTestId(`tile-${id}`).locator('.stat-value').innerText();

/** The tiles show the API's figures (Indian grouping). */
async function expectTiles(page: Page, expected: ReportSummary): Promise<void> {
  await expect.poll(() => tile(page, 'total'), { timeout: 15_000 }).toBe(expected.total.toLocaleString('en-IN'));
  for (const status of statuses)
    expect(await tile(page, status)).toBe(expected.byStatus[status].toLocaleString('en-IN'));
}

/** Number of svg shapes nivo drew in a chart's box. */
const shapes = (page: Page, id: string) =>
  page.getByTestId(`chart-${id}`).locator('.report-chart svg').locator('path, rect').count();

/**
 * The report shown and no request under way. 15 s: with 450 days of data the default
 * (400-day) report settled 3.6 s after the heading (12.4 s at 4x CPU throttling) in
 * the dev server's Chromium; before day-charts.tsx drew a shape per day, 11.6 s (54 s).
 */
async function settled(page: Page): Promise<void> {
  await page.getByTestId('report-body').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
}

async function checkScreen(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, name);
  expect(await hasHorizontalOverflow(page), `${name}: the page scrolls sideways`).toBe(false);
  expect(await seriousAxeViolations(page), name).toEqual([]);
}

describe('reports page', () => {
  it('shows the API figures in the tiles and draws every chart (English)', async () => {
    const { page, s } = await openReports('en', windowQuery);
    await expect(page.getByText(s.reports.subtitle, { exact: true }).isVisible()).resolves.toBe(true);
    expect(await page.getByRole('link', { name: s.reports.back }).getAttribute('href')).toBe('/admin');
    const expected = await summary(windowQuery);
    expect(expected.total).toBe(COUNT);
    await settled(page);
    await expectTiles(page, expected);
    for (const id of chartIds) await expect.poll(() => shapes(page, id), { message: id }).toBeGreaterThan(0);
    expect(await page.getByTestId('no-data').count()).toBe(0);
    // The raw-data table says how many match and shows the newest first.
    await expect.poll(() => page.getByTestId('raw-total').innerText()).toContain(String(COUNT));
    // Statuses upper-cased with a space; every district, as the dashboard offers them.
    const statusLabels = await page.getByTestId('status-filter').locator('label').allInnerTexts();
    expect(statusLabels.map((l) => l.trim())).toEqual(['PENDING', 'UNDER REVIEW', 'APPROVED', 'REJECTED']);
    const districtLabels = await page.getByTestId('district-filter').locator('label').allInnerTexts();
    expect(districtLabels.map((l) => l.trim())).toEqual([...knownDistrictNames]);
    await checkScreen(page, 'reports-en-1280');
  });

  it('shows the default report as the API does (every status, no dates)', async () => {
    const { page } = await openReports('en');
    // Whatever the page got first, a report or (data over more than 400 days, other files'
    // data arriving meanwhile) the error; then the API is asked the same. Asking the API
    // first raced the page: it answered 200 while the page's own request was refused.
    const shown = await Promise.race([
      settled(page).then(() => 'report' as const),
      page
        .getByTestId('report-error')
        .waitFor({ timeout: 15_000 })
        .then(() => 'error' as const),
    ]);
    const response = await fetch(`${appUrl}/api/admin/reports/summary`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (shown === 'report') {
      expect(response.status).toBe(200);
      await expectTiles(page, (await response.json()) as ReportSummary);
    } else {
      expect(response.status).toBe(400);
    }
  });

  it('says "No data" for a range that matches nothing, still draws the three pies, and updates live', async () => {
    const { page, s } = await openReports('en', windowQuery);
    await settled(page);
    let loads = 0;
    page.on('load', () => (loads += 1));
    const from = page.getByLabel(s.reports.from, { exact: true });
    const to = page.getByLabel(s.reports.to, { exact: true });
    await from.fill('2001-01-01');
    await to.fill('2001-01-31');
    await expect.poll(() => page.url()).toContain('from=2001-01-01');
    await expect.poll(() => tile(page, 'total'), { timeout: 15_000 }).toBe('0');
    await settled(page);
    for (const id of ['age', 'locations', 'by-day', 'districts', 'daily-status']) {
      expect(await page.getByTestId(`chart-${id}`).getByText(s.reports.noData, { exact: true }).count(), id).toBe(1);
    }
    for (const id of pies) {
      await expect.poll(() => shapes(page, id), { message: id }).toBeGreaterThan(0);
      expect(await page.getByTestId(`chart-${id}`).locator('.report-legend li').count(), id).toBeGreaterThan(1);
    }
    await expect.poll(() => page.getByTestId('raw-total').innerText()).toContain('0');
    await checkScreen(page, 'reports-empty-en-1280');

    // Back to the window, then one status and one district: charts follow without a reload.
    await from.fill(windowFrom);
    await to.fill(windowTo);
    await expect.poll(() => tile(page, 'total'), { timeout: 15_000 }).toBe(String(COUNT));
    await page.getByTestId('status-filter').getByLabel('PENDING', { exact: true }).uncheck();
    // A real click (the element is clicked where it is, without Playwright's stability wait).
    await page
      .getByTestId('district-filter')
      .getByLabel('Chennai', { exact: true })
      .evaluate((el: HTMLInputElement) => el.click());
    await expect.poll(() => page.url()).toContain('district=Chennai');
    await expect
      .poll(() => page.getByTestId('district-filter').getByLabel('Chennai', { exact: true }).isChecked())
      .toBe(true);

    const query = `${windowQuery}&status=under_review,approved,rejected&district=Chennai`;
    const filtered = await summary(query);
    await settled(page);
    await expectTiles(page, filtered);
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThan(COUNT);
    expect(await tile(page, 'pending')).toBe('0');
    for (const id of chartIds) await expect.poll(() => shapes(page, id), { message: id }).toBeGreaterThan(0);
    expect(page.url()).toContain('district=Chennai');

    // The export: every matching row (rules/csv.ts: BOM, quoted, formula guard).
    const expectedRows = await allRows(query);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: s.reports.export, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`applications_report_${istDay(new Date())}.csv`);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const parsed: Record<string, string>[] = parse(text, { bom: true, columns: true });
    // The formula guard: the name starting with '=' is exported with a leading apostrophe.
    if (parsed.some((r) => r.name?.includes('SUM(1)'))) {
      expect(parsed.find((r) => r.name?.includes('SUM(1)'))?.name?.startsWith("'=")).toBe(true);
    }
    expect(parsed.map((r) => r.id).sort()).toEqual(expectedRows.map((r) => r.id).sort());
    expect(parsed).toHaveLength(filtered.total);
    for (const row of parsed) {
      expect(row.revenue_district).toBe('Chennai');
      expect(row.application_status).not.toBe('pending');
    }

    // Reset: no dates, every status, no district.
    await page.getByRole('button', { name: s.reports.reset, exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(await from.inputValue()).toBe('');
    expect(await to.inputValue()).toBe('');
    for (const label of ['PENDING', 'UNDER REVIEW', 'APPROVED', 'REJECTED']) {
      expect(await page.getByTestId('status-filter').getByLabel(label, { exact: true }).isChecked(), label).toBe(true);
    }
    expect(await page.getByTestId('district-filter').locator('input:checked').count()).toBe(0);
    expect(loads).toBe(0);
  });

  it('is usable in Tamil (labels, months, districts)', async () => {
    const { page, s } = await openReports('ta', windowQuery);
    await settled(page);
    await expectTiles(page, await summary(windowQuery));
    await expect(page.getByText(s.reports.subtitle, { exact: true }).isVisible()).resolves.toBe(true);
    const districtLabels = await page.getByTestId('district-filter').locator('label').allInnerTexts();
    expect(districtLabels.join(' ')).toMatch(/[\u0B80-\u0BFF]/);
    // The day axis in ta-IN (Tamil month names).
    const axis = await page.getByTestId('chart-by-day').locator('svg text').allTextContents();
    expect(axis.join(' ')).toMatch(/[\u0B80-\u0BFF]/);
    await checkScreen(page, 'reports-ta-1280');
  });
});
