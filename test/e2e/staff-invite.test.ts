/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { istDay } from '../../rules/ist';
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
  passSecondFactor,
  staffTexts,
  type StaffLanguage,
} from '../support/staff-browser';

// Issue 17 in Chromium, end to end: an admin invites a coordinator for Chennai on the
// Staff page; the coordinator signs in (their own password, then an authenticator) and
// sees Chennai's applicants only; the admin disables them, and once their token has
// lived its 15 minutes the refresh is refused and the staff area is closed to them.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
const marker = `inv${randomMarker(6)}`;
const email = `coordinator.${marker}@example.org`;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  const records: LegacyRecord[] = (['Chennai', 'Madurai'] as const).map((district, i) => ({
    id: `e2e-${marker}-${i}`,
    phone_number: `91${randomMobile()}`,
    name: `Invited ${marker} ${district}`,
    email: '',
    gender: 'Female',
    date_of_birth: '2003-05-06',
    revenue_district: district,
    education: 'Law',
    occupation: 'Student',
    motivation: 'Invite flow',
    application_status: 'pending',
    submitted_at: new Date(Date.UTC(2025, 6, 1 + i, 4, 30)).toISOString(),
    is_already_member: 'false',
    want_to_volunteer: '',
    want_to_join_and_volunteer: '',
  }));
  expect(await importRecords(readLocalEndpoints(dataDir), records)).toMatchObject({ imported: 2, rejected: [] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const openStaffAdmin = (language: StaffLanguage) =>
  openStaffPage(browser, {
    appUrl,
    language,
    viewport: viewports.desktop,
    path: '/admin/staff',
    heading: (s) => s.staffAdmin.title,
  });

describe('a coordinator invited from the Staff page', () => {
  let temporary = '';

  it('is invited by an admin with Chennai as their district; the page shows every width in both languages', async () => {
    const { page, context, s } = await openStaffAdmin('en');
    const form = page.getByRole('form', { name: s.staffAdmin.inviteTitle });
    await form.getByLabel(s.staffAdmin.email, { exact: true }).fill(email);
    await form.getByLabel(s.staffAdmin.role, { exact: true }).selectOption('coordinator');
    await form.getByRole('checkbox', { name: 'Chennai', exact: true }).check();
    await form.getByRole('button', { name: s.staffAdmin.invite, exact: true }).click();
    // Locally no e-mail goes: the page shows the temporary password once.
    const shown = page.getByText(/Temporary password \(shown once\): \S+/);
    await shown.waitFor();
    temporary = /: (\S+)$/.exec((await shown.innerText()).trim())?.[1] ?? '';
    expect(temporary).not.toBe('');
    const card = page.getByTestId('staff-member').filter({ hasText: email });
    await expect.poll(() => card.innerText()).toContain('Chennai');
    expect(await card.innerText()).toContain(s.session.role.coordinator);
    await lookAtEveryWidth(page, 'staff-admin-en');
    await context.close();

    const ta = await openStaffAdmin('ta');
    await ta.page.getByTestId('staff-member').filter({ hasText: email }).waitFor();
    await lookAtEveryWidth(ta.page, 'staff-admin-ta');
    await ta.context.close();
  });

  it("signs in with a password of their own and an authenticator, sees only Chennai's applicants, and is shut out once disabled", async () => {
    expect(temporary).not.toBe('');
    const s = staffTexts.en;
    const context = await browser.newContext({ viewport: viewports.desktop, locale: 'en-IN', acceptDownloads: true });
    // The browser's clock, to let the token's 15 minutes pass at the end.
    await context.clock.install();
    const page = await context.newPage();
    await page.goto(`${appUrl}/admin`);
    await page.getByLabel(s.login.email, { exact: true }).fill(email);
    await page.getByLabel(s.login.password, { exact: true }).fill(temporary);
    await page.getByRole('button', { name: s.login.login, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: s.newPassword.title }).waitFor();
    const chosen = 'Invited-Password-7!';
    await page.getByLabel(s.newPassword.newPassword, { exact: true }).fill(chosen);
    await page.getByLabel(s.newPassword.confirm, { exact: true }).fill(chosen);
    await page.getByRole('button', { name: s.newPassword.submit, exact: true }).click();
    await passSecondFactor(page, s, email);
    await page.getByRole('heading', { level: 1, name: s.dashboard.title }).waitFor();
    expect(await page.getByTestId('staff-scope').innerText()).toBe(`${s.scope.label} Chennai`);

    const form = page.getByRole('search', { name: s.filters.label });
    await form.getByLabel(s.filters.search, { exact: true }).fill(marker);
    await form.getByRole('button', { name: s.filters.apply, exact: true }).click();
    const rows = page.locator('[data-testid="application-row"] .row-name');
    await expect.poll(() => rows.allInnerTexts()).toEqual([`Invited ${marker} Chennai`]);

    // Their export holds Chennai's applicant alone, and its name says so.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: s.export.button, exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`applications_export_chennai_${istDay(new Date())}.csv`);
    const exported: Record<string, string>[] = parse(readFileSync(await download.path(), 'utf8'), {
      bom: true,
      columns: true,
    });
    expect(exported.map((r) => r.name)).toEqual([`Invited ${marker} Chennai`]);

    // Their reports over these two days count Chennai's one applicant, not Madurai's.
    await page.goto(`${appUrl}/admin/reports?from=2025-07-01&to=2025-07-02`);
    await page.getByTestId('report-body').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 30_000 });
    const raw = page.getByTestId('raw-table').locator('tbody tr');
    await expect
      .poll(async () => (await raw.allInnerTexts()).filter((row) => row.includes(marker)))
      .toEqual([expect.stringContaining(`Invited ${marker} Chennai`)]);
    expect(await page.getByTestId('district-filter').getByRole('checkbox').count()).toBe(1);

    // The admin disables them on the Staff page.
    const admin = await openStaffAdmin('en');
    const card = admin.page.getByTestId('staff-member').filter({ hasText: email });
    await card.getByRole('button', { name: admin.s.staffAdmin.disable, exact: true }).click();
    await expect.poll(() => card.innerText()).toContain(admin.s.staffAdmin.disabled);
    await admin.context.close();

    // Sixteen minutes later their ID token has expired; the refresh is refused for a
    // disabled user, and the next request leaves them at the sign-in screen.
    await page.clock.fastForward('16:00');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: s.login.title }).waitFor({ timeout: 30_000 });
    await context.close();
  });
});
