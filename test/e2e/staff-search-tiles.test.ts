/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StatsResponse } from '../../rules/report';
import type { ListResponse } from '../../rules/staff-api';
import { launchChromium, viewports } from '../support/browser';
import {
  importRecords,
  type LegacyRecord,
  randomMarker,
  randomMobile,
  readLocalEndpoints,
} from '../support/staff-data';
import {
  lookAtEveryWidth,
  openStaffPage,
  seededAdmin,
  type StaffLanguage,
  type StaffPage,
} from '../support/staff-browser';
import { signIn as cognitoSignIn } from '../support/tokens';

// The dashboard's search finds a number written as the table shows it (+91 86846 13282)
// or as people write it (spaces, dashes, a leading 0), and the status tiles follow a bulk
// status change without a reload, in English and Tamil.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
type Width = keyof typeof viewports;

const marker = randomMarker();
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const mobiles = Array.from({ length: 6 }, () => randomMobile());
const names = mobiles.map((_, i) => `Tile ${surname} ${i}`);

let browser: Browser;
let token: string;

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${appUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { method: 'POST', body: JSON.stringify(body) }),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(dataDir);
  token = await cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, seededAdmin);
  const before = await api<StatsResponse>('/api/admin/stats');
  // Six pending applications submitted a minute apart today, so that they head the dashboard.
  const records: LegacyRecord[] = mobiles.map((mobile, i) => ({
    id: `e2e-tiles-${marker}-${i}`,
    phone_number: `91${mobile}`,
    name: names[i]!,
    email: '',
    gender: 'Female',
    date_of_birth: '2002-02-02',
    revenue_district: 'Madurai',
    education: 'Law',
    occupation: 'Student',
    motivation: 'Tiles and search',
    application_status: 'pending',
    submitted_at: new Date(Date.now() - (10 - i) * 60_000).toISOString(),
    is_already_member: 'false',
    want_to_volunteer: '',
    want_to_join_and_volunteer: '',
  }));
  expect(await importRecords(endpoints, records)).toMatchObject({ imported: mobiles.length, rejected: [] });
  // The tiles read the rollups, which follow the table's stream.
  let pending = before.pending;
  for (let i = 0; i < 80 && pending !== before.pending + mobiles.length; i++) {
    await new Promise((r) => setTimeout(r, 250));
    pending = (await api<StatsResponse>('/api/admin/stats')).pending;
  }
  expect(pending).toBe(before.pending + mobiles.length);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

type Opened = StaffPage;

const openDashboard = (language: StaffLanguage, width: Width) =>
  openStaffPage(browser, {
    appUrl,
    language,
    viewport: viewports[width],
    path: '/admin',
    heading: (s) => s.dashboard.title,
  });

async function search({ page, s }: Opened, q: string): Promise<void> {
  const form = page.getByRole('search', { name: s.filters.label });
  await form.getByLabel(s.filters.search, { exact: true }).fill(q);
  await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
}

const rowNames = (page: Page) => page.locator('[data-testid="application-row"] .row-name').allInnerTexts();
const tile = (page: Page, id: string) => page.getByTestId(`stat-${id}`).locator('.stat-value').innerText();
const spaced = (mobile: string) => `${mobile.slice(0, 5)} ${mobile.slice(5)}`;

describe('dashboard search by phone number', () => {
  it('finds a number written as the table shows it, with spaces, +91, a leading 0 or dashes (API)', async () => {
    const mobile = mobiles[0]!;
    for (const q of [
      mobile,
      spaced(mobile),
      `+91 ${spaced(mobile)}`,
      `0${mobile}`,
      `${mobile.slice(0, 5)}-${mobile.slice(5)}`,
    ]) {
      // The stream's consumer writes the rollups (awaited above) before the search index.
      const found = () => api<ListResponse>('/api/admin/applications/search', { filters: { q } });
      await expect
        .poll(
          async () => {
            const body = await found();
            return { names: body.items.map((r) => r.name), total: body.total };
          },
          { timeout: 10_000, message: q },
        )
        .toEqual({ names: [names[0]], total: 1 });
    }
  });

  for (const language of ['en', 'ta'] as const) {
    it(`finds "+91 ${'x'.repeat(5)} ${'x'.repeat(5)}" from the search box (${language})`, async () => {
      const o = await openDashboard(language, 'desktop');
      const mobile = mobiles[1]!;
      // Exactly as the table prints it: "+91 98765 43210".
      await search(o, `+91 ${spaced(mobile)}`);
      await expect.poll(() => rowNames(o.page), { timeout: 10_000 }).toEqual([names[1]]);
      expect(await o.page.getByTestId('application-row').innerText()).toContain(`+91 ${spaced(mobile)}`);
      await search(o, `0${spaced(mobile)}`);
      await expect.poll(() => rowNames(o.page), { timeout: 10_000 }).toEqual([names[1]]);
      await lookAtEveryWidth(o.page, `staff-search-phone-${language}`);
      await o.context.close();
    });
  }
});

describe('status tiles after a bulk change', () => {
  for (const [i, language] of (['en', 'ta'] as const).entries()) {
    it(`count the change at once, without a reload (${language})`, async () => {
      const o = await openDashboard(language, 'desktop');
      const { page, s } = o;
      await search(o, surname);
      const chosen = [names[2 + i * 2]!, names[3 + i * 2]!];
      await expect.poll(() => rowNames(page), { timeout: 10_000 }).toContain(chosen[1]);
      const stats = await api<StatsResponse>('/api/admin/stats');
      const shown = (n: number) => n.toLocaleString('en-IN');
      await expect.poll(() => tile(page, 'pending')).toBe(shown(stats.pending));
      expect(await tile(page, 'approved')).toBe(shown(stats.approved));

      for (const name of chosen) {
        await page.getByRole('checkbox', { name: s.table.selectRow.replace('{{name}}', name), exact: true }).check();
      }
      const bar = page.getByTestId('bulk-bar');
      await bar.getByLabel(s.bulk.status, { exact: true }).selectOption('approved');
      await bar.getByRole('button', { name: s.bulk.apply, exact: true }).click();
      await page.getByText(s.bulk.done_other.replace('{{count}}', '2')).waitFor();

      // No reload: the tiles catch up with the change by themselves.
      await expect.poll(() => tile(page, 'pending'), { timeout: 10_000 }).toBe(shown(stats.pending - 2));
      expect(await tile(page, 'approved')).toBe(shown(stats.approved + 2));
      expect(await tile(page, 'total')).toBe(shown(stats.total));
      await lookAtEveryWidth(page, `staff-tiles-after-bulk-${language}`);
      await o.context.close();
    });
  }
});
