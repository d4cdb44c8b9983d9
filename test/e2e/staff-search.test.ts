/// <reference lib="dom" />
import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

// The dashboard's search through the index the applications stream keeps (issue 18), in
// Chromium as the seeded admin, in English and Tamil: a number written as the table
// shows it (+91 98765 43210) and by its last 5 digits, names by the start of their words
// in Tamil and in Latin script (another case), each with exactly the right rows and
// total; a 3-digit search refused in the form without a request; a search for the middle
// of a word answered with an empty state that says what a search matches. The index
// follows a write within a moment, so every answer is polled for.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');

// Words no other data carries (the stack and its data are shared with the other files):
// a Latin surname, and a Tamil one of random syllables.
const marker = randomMarker();
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const syllables = [
  'க',
  'கா',
  'கி',
  'கு',
  'ம',
  'மா',
  'மி',
  'ந',
  'நா',
  'ப',
  'பு',
  'ர',
  'ரா',
  'வ',
  'வி',
  'ல',
  'லா',
  'த',
  'தா',
  'செ',
  'சு',
];
const tamilParts = Array.from({ length: 5 }, () => syllables[randomInt(0, syllables.length)]!);
const tamilSurname = tamilParts.join('');

const people = [
  { name: `கவிநிலா ${tamilSurname}` },
  { name: `கவியரசன் ${tamilSurname}` },
  { name: `நிலாமதி ${tamilSurname}` },
  { name: `Kavya ${surname}`, email: `kavya.${marker}@example.org` },
  { name: `Kavin ${surname}` },
  { name: `Arun ${surname}` },
] as const;
/** Kavya's number: its last 5 digits are no other application's (checked before the import). */
let kavyaMobile: string;

let browser: Browser;
let token: string;

async function search(q: string): Promise<ListResponse> {
  const response = await fetch(`${appUrl}/api/admin/applications/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filters: { q }, pageSize: 50 }),
  });
  expect(response.status, q).toBe(200);
  return (await response.json()) as ListResponse;
}

/** A number whose last 5 digits no application has yet: its tail then finds it alone. */
async function freshMobile(): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const mobile = randomMobile();
    if ((await search(mobile.slice(-5))).total === 0) return mobile;
  }
  throw new Error('no number with a free 5-digit tail in 20 tries');
}

beforeAll(async () => {
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(dataDir);
  token = await cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, seededAdmin);
  kavyaMobile = await freshMobile();
  // Submitted a minute apart, the first newest: the dashboard lists them in this order.
  const records: LegacyRecord[] = people.map((person, i) => ({
    id: `e2e-search-${marker}-${i}`,
    phone_number: `91${person.name.startsWith('Kavya') ? kavyaMobile : randomMobile()}`,
    name: person.name,
    email: 'email' in person ? person.email : '',
    gender: i % 2 ? 'Male' : 'Female',
    date_of_birth: '2003-03-03',
    revenue_district: 'Madurai',
    education: 'Law',
    occupation: 'Student',
    motivation: 'Search by the start of a word',
    application_status: 'pending',
    submitted_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    is_already_member: 'false',
    want_to_volunteer: '',
    want_to_join_and_volunteer: '',
  }));
  expect(await importRecords(endpoints, records)).toMatchObject({ imported: people.length, rejected: [] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const openDashboard = (language: StaffLanguage) =>
  openStaffPage(browser, {
    appUrl,
    language,
    viewport: viewports.desktop,
    path: '/admin',
    heading: (s) => s.dashboard.title,
  });

const searchBox = ({ page, s }: StaffPage) =>
  page.getByRole('search', { name: s.filters.label }).getByLabel(s.filters.search, { exact: true });

async function apply(o: StaffPage, q: string): Promise<void> {
  await searchBox(o).fill(q);
  await o.page
    .getByRole('search', { name: o.s.filters.label })
    .getByRole('button', { name: o.s.filters.apply, exact: true })
    .click();
}

const rowNames = (page: Page) => page.locator('[data-testid="application-row"] .row-name').allInnerTexts();
const pagerText = (page: Page) => page.getByTestId('pager-text').innerText();
const pagerFor = (s: StaffPage['s'], total: number) =>
  s.pager.text.replace('{{page}}', '1').replace('{{pages}}', '1').replace('{{total}}', String(total));
const spaced = (mobile: string) => `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`;
const named = (...indexes: number[]) => indexes.map((i) => people[i]!.name);

/** Applies the search, then waits (the index catches up within a moment) for exactly these rows and their total. */
async function expectFound(o: StaffPage, q: string, names: string[]): Promise<void> {
  await apply(o, q);
  await expect.poll(() => rowNames(o.page), { timeout: 15_000, message: q }).toEqual(names);
  await expect.poll(() => pagerText(o.page), { message: q }).toBe(pagerFor(o.s, names.length));
}

describe('dashboard search through the index (issue 18)', () => {
  it('answers the API the same: a whole number written with +91 and spaces, its tail, a whole email in another case', async () => {
    const kavya = { names: named(3), total: 1 };
    const found = async (q: string) => {
      const body = await search(q);
      return { names: body.items.map((r) => r.name), total: body.total };
    };
    for (const q of [spaced(kavyaMobile), kavyaMobile.slice(-5), `KAVYA.${marker.toUpperCase()}@EXAMPLE.ORG`]) {
      await expect.poll(() => found(q), { timeout: 15_000, message: q }).toEqual(kavya);
    }
    // Part of an email is not an email: nothing.
    expect(await found(`kavya.${marker}@example`)).toEqual({ names: [], total: 0 });
  });

  for (const language of ['en', 'ta'] as const) {
    it(`finds a number whole and by its last 5 digits, and names by the start of their words in both scripts (${language})`, async () => {
      const o = await openDashboard(language);
      const hint = o.page.getByRole('search').getByText(o.s.filters.searchHint, { exact: true });
      expect(await hint.isVisible()).toBe(true);
      expect(await searchBox(o).getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
      await lookAtEveryWidth(o.page, `search-hint-${language}`);

      await expectFound(o, spaced(kavyaMobile), named(3));
      await expectFound(o, kavyaMobile.slice(-5), named(3));
      // Tamil: the start of a given name and of the (random) family name, four syllables of it.
      await expectFound(o, `கவி ${tamilParts.slice(0, 4).join('')}`, named(0, 1));
      // Latin: the start of both words, in another case.
      await expectFound(o, `KAV ${marker.slice(0, 5).toUpperCase()}`, named(3, 4));
      await expectFound(o, marker.toUpperCase(), named(3, 4, 5));
      // The search term stays out of the address.
      expect(o.page.url()).not.toContain(marker);
      await o.context.close();
    });

    it(`refuses 3 digits in the form without asking, and explains a search for the middle of a word (${language})`, async () => {
      const o = await openDashboard(language);
      const { page, s } = o;
      await expectFound(o, marker, named(3, 4, 5));
      let asked = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/admin/applications/search')) asked += 1;
      });

      await apply(o, kavyaMobile.slice(-3));
      const alert = page.getByRole('search').getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(s.filters.searchTooShort);
      expect(await searchBox(o).getAttribute('aria-invalid')).toBe('true');
      expect((await searchBox(o).getAttribute('aria-describedby'))?.split(' ')).toContain(
        await alert.getAttribute('id'),
      );
      await page.waitForTimeout(500);
      expect(asked).toBe(0);
      // The rows of the last search stay.
      expect(await rowNames(page)).toEqual(named(3, 4, 5));
      await lookAtEveryWidth(page, `search-too-short-${language}`);

      // The middle of a word, in each script: nothing, and the empty state says why.
      for (const q of [marker.slice(2), tamilParts.slice(1).join('')]) {
        await apply(o, q);
        const empty = page.getByTestId('empty-state');
        await empty.waitFor();
        expect(await empty.innerText(), q).toContain(s.table.emptySearch);
        expect(await page.getByRole('search').getByRole('alert').count()).toBe(0);
        await expect.poll(() => pagerText(page)).toBe(pagerFor(s, 0));
      }
      expect(asked).toBeGreaterThanOrEqual(2);
      await lookAtEveryWidth(page, `search-empty-${language}`);
      await o.context.close();
    });
  }
});
