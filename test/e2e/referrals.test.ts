/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReportSummary } from '../../rules/report';
import type { ApplicationDetail } from '../../rules/staff-api';
import { launchChromium } from '../support/browser';
import { goodCaptcha, post, submitBody } from '../support/public-flow';
import { lookAtEveryWidth, openStaffPage, type StaffLanguage } from '../support/staff-browser';
import { applyThroughPublicFlow, otpFor, randomMarker, randomMobile, readLocalEndpoints } from '../support/staff-data';
import { signIn as cognitoSignIn } from '../support/tokens';

// Issue 19's referrals in Chromium against `npm start`, end to end: A applies and is
// approved in the staff API, which issues A's referral code; B applies through A's link
// (`attribution.referral`, as the public page sends it) and is approved. A's details row
// shows the link and "brought 1, 1 approved"; the Reports page shows the Referrals tile and
// A in "Top recruiters". Every width, in English and Tamil.

const appUrl = inject('appUrl');
const marker = randomMarker();
const surname = marker[0]!.toUpperCase() + marker.slice(1);
const referrerName = `Anbu ${surname}`;
let browser: Browser;
let token: string;
let code: string;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${appUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const approve = (id: string) => api('POST', '/api/admin/applications/status', { ids: [id], status: 'approved' });

beforeAll(async () => {
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(inject('localDataDir'));
  token = await cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, {
    email: 'admin@example.com',
    password: 'Admin-Password-123!',
  });
  const a = await applyThroughPublicFlow(appUrl, randomMobile(), {
    name: referrerName,
    email: `${marker}@example.com`,
  });
  await approve(a);
  code = (await api<ApplicationDetail>('GET', `/api/admin/applications/${a}`)).referrals!.code!;
  expect(code).toMatch(/^[a-z2-9]{12}$/);

  // B through A's link: the body the public page sends with a kept referral code.
  const mobile = randomMobile();
  expect((await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha })).status).toBe(200);
  const verified = await post(appUrl, '/api/otp/verify', { mobile, code: await otpFor(appUrl, mobile) });
  const submitted = await post(appUrl, '/api/applications', {
    ...submitBody(String(verified.body.verificationToken), { name: `Bala ${surname}` }),
    attribution: { referral: code },
  });
  expect(submitted.status).toBe(201);
  await approve(String(submitted.body.id));
  // The rollups follow the table's stream: within a moment A leads the board.
  let leader: unknown;
  for (let i = 0; i < 100 && !leader; i++) {
    const report = await api<ReportSummary>('GET', '/api/admin/reports/summary');
    leader = report.topReferrers?.find((r) => r.id === a && r.approved === 1);
    if (!leader) await new Promise((r) => setTimeout(r, 200));
  }
  expect(leader).toMatchObject({ name: referrerName, brought: 1, approved: 1 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
});

describe('referrals in the staff area', () => {
  for (const language of ['en', 'ta'] as const satisfies StaffLanguage[]) {
    it(`shows the member's link and what it brought, and the leaderboard, in ${language}`, async () => {
      const { page, context, s } = await openStaffPage(browser, {
        appUrl,
        language,
        viewport: { width: 1280, height: 900 },
        path: '/admin',
        heading: (t) => t.dashboard.title,
      });
      try {
        const form = page.getByRole('search', { name: s.filters.label });
        await form.getByLabel(s.filters.search, { exact: true }).fill(`${marker}@example.com`);
        await form.getByLabel(s.filters.search, { exact: true }).press('Enter');
        const detailsButton = page.getByRole('button', {
          name: s.table.detailsOf.replace('{{name}}', referrerName),
          exact: true,
        });
        await detailsButton.click();
        const field = page.getByTestId('referrals');
        await field.waitFor();
        expect(await field.innerText()).toContain(`${appUrl.replace(/\/+$/, '')}/?r=${code}`);
        expect(await field.innerText()).toContain(
          s.details.referralCounts.replace('{{brought}}', '1').replace('{{approved}}', '1'),
        );
        await lookAtEveryWidth(page, `referrals-details-${language}`);

        await page.goto(`${appUrl}/admin/reports`);
        const tile = page.getByTestId('tile-referrals');
        await tile.waitFor();
        expect(Number((await tile.locator('.stat-value').innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
        const chart = page.getByTestId('chart-referrers');
        await chart.waitFor();
        expect(await chart.locator('table').innerText()).toContain(referrerName);
        await lookAtEveryWidth(page, `referrals-reports-${language}`);
      } finally {
        await context.close();
      }
    });
  }
});
