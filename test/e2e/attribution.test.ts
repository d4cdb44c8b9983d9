/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Campaign, campaignIsLive } from '../../rules/campaigns';
import { istDay } from '../../rules/ist';
import type { ReportSummary } from '../../rules/report';
import type { ApplicationDetail, ListResponse } from '../../rules/staff-api';
import { ta } from '../../web/src/i18n/ta';
import { taForm } from '../../web/src/i18n/ta-form';
import { launchChromium, viewports } from '../support/browser';
import { fillApplicationForm } from '../support/public-browser';
import { openStaffPage } from '../support/staff-browser';
import { sampleApplication } from '../support/public-flow';
import {
  applyThroughPublicFlow,
  otpFor,
  randomMarker,
  randomMobile,
  seededAdminApi,
  type staffApi,
} from '../support/staff-data';
import { resetStandIns, webhookDeliveries } from '../support/stand-ins';

// Issue 19 end to end, in Chromium against `npm start`: a campaign's link
// (`/?c=<code>&utm_source=…`) is read on the first view, kept in the tab through a
// language switch and a reload, and sent with the application; the server freezes the
// campaign on it when the campaign counts that day. Then everywhere the application goes:
// the staff API's record, the dashboard's CSV export, the webhook, and the reports
// filtered by the campaign. A paused campaign's code, an unknown one and a malformed one
// cost the applicant nothing: the application goes, with no campaign.
const appUrl = inject('appUrl');
/** The public page's strings in Tamil, the language the applicant switches to. */
const tamil = { ...ta, ...taForm };
let browser: Browser;
let api: ReturnType<typeof staffApi>;
/** A live campaign: the seeded statewide one (local/campaign-seed.ts), or a new one if it is not live today. */
let live: Campaign;
let paused: Campaign;

/** The seeded campaign with `code` when it is live today, else a new statewide one made through the staff API. */
async function liveCampaign(campaigns: readonly Campaign[], code: string): Promise<Campaign> {
  const seeded = campaigns.find((c) => c.code === code);
  if (seeded && campaignIsLive(seeded, istDay(new Date()))) return seeded;
  const today = istDay(new Date());
  const made = await api<Campaign>('/api/admin/campaigns', {
    method: 'POST',
    body: {
      name_en: `Attribution ${randomMarker()}`,
      name_ta: 'பரப்புரை',
      kind: 'online',
      starts_on: today,
      ends_on: today,
    },
  });
  expect(made.status).toBe(201);
  return made.body;
}

beforeAll(async () => {
  browser = await launchChromium();
  api = await seededAdminApi(appUrl, inject('localDataDir'));
  const { body } = await api<{ items: Campaign[] }>('/api/admin/campaigns');
  live = await liveCampaign(body.items, 'state2');
  paused = body.items.find((c) => c.code === 'paused')!;
  expect(paused.status).toBe('paused');
});

afterAll(async () => {
  await browser?.close();
  await resetStandIns(appUrl);
});

/** The submit's request, and the application id the server answered. */
interface Submitted {
  readonly body: Record<string, unknown>;
  readonly id: string;
}

/** Opens `path` in English, switches to Tamil, reloads on the form, applies. */
async function applyFrom(path: string): Promise<{ submitted: Submitted; addressAfterFirstView: string }> {
  const context = await browser.newContext({ viewport: viewports.phone, locale: 'en-US' });
  try {
    await context.addInitScript(() => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', 'en');
    });
    const page = await context.newPage();
    const submits: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/applications') submits.push(request);
    });
    await page.goto(`${appUrl}${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Kept, then out of the address bar (the capture's chunk loads after the first view).
    await expect.poll(() => new URL(page.url()).search).toBe('');
    const addressAfterFirstView = new URL(page.url()).pathname;

    await page.getByRole('button', { name: ta.language.ta, exact: true }).click();
    const mobile = randomMobile();
    await page.getByLabel(tamil.step1.mobileLabel, { exact: true }).fill(mobile);
    const send = page.getByRole('button', { name: tamil.step1.send, exact: true });
    await expect.poll(() => send.isEnabled()).toBe(true);
    await send.click();
    await page.getByLabel(tamil.step1.otpLabel, { exact: true }).fill(await otpFor(appUrl, mobile));
    await page.getByRole('button', { name: tamil.step1.verify, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: tamil.form.heading }).waitFor();

    // A reload after the code step: the flow and the attribution come back from the tab.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: tamil.form.heading }).waitFor();
    await fillApplicationForm(page, tamil);
    await page.getByRole('button', { name: tamil.form.submit, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: tamil.confirmation.slogan }).waitFor();

    expect(submits).toHaveLength(1);
    const request = submits[0]!;
    const answer = (await (await request.response())!.json()) as { id: string };
    return {
      submitted: { body: request.postDataJSON() as Record<string, unknown>, id: answer.id },
      addressAfterFirstView,
    };
  } finally {
    await context.close();
  }
}

/** The application as the staff API gives it. */
async function stored(id: string): Promise<ApplicationDetail['application']> {
  const { status, body } = await api<ApplicationDetail>(`/api/admin/applications/${id}`);
  expect(status).toBe(200);
  return body.application;
}

/** The webhook's body for the application, waiting for the stream and the queue to deliver it. */
async function webhookBodyOf(id: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await expect
    .poll(async () => (found = (await webhookDeliveries(appUrl)).find((d) => d.body.application_id === id)?.body), {
      timeout: 20_000,
    })
    .toBeDefined();
  return found!;
}

const campaignTotal = async (campaign: Campaign) =>
  (await api<ReportSummary>(`/api/admin/reports/summary?campaign=${campaign.id}`)).body.total;
const everyTotal = async () => (await api<ReportSummary>('/api/admin/reports/summary')).body.total;

describe('an application through a live campaign’s link', () => {
  // The tests below follow the application the first one makes.
  let id = '';
  let before = 0;

  it('is sent with the code and the UTM source through a language switch and a reload, and stored with the campaign', async () => {
    before = await campaignTotal(live);
    const { submitted, addressAfterFirstView } = await applyFrom(`/?c=${live.code}&utm_source=instagram`);
    expect(addressAfterFirstView).toBe('/');
    expect(submitted.body).toMatchObject({ language: 'ta' });
    expect(submitted.body.attribution).toEqual({ campaign: live.code, utm_source: 'instagram' });
    id = submitted.id;
    expect(await stored(id)).toMatchObject({ campaign_id: live.id, campaign_code: live.code, utm_source: 'instagram' });
  });

  it('carries them to the webhook', async () => {
    expect(await webhookBodyOf(id)).toMatchObject({
      campaign_id: live.id,
      campaign_code: live.code,
      utm_source: 'instagram',
      utm_medium: null,
    });
  });

  it('carries them in the CSV export of the campaign’s applications', async () => {
    // The dashboard's listing by campaign reads an index: wait until it holds the application.
    await expect
      .poll(async () => {
        const found = await api<ListResponse>('/api/admin/applications/search', {
          method: 'POST',
          body: { filters: { campaign: live.id }, pageSize: 100 },
        });
        return found.body.items?.some((row) => row.id === id);
      })
      .toBe(true);
    const { page, context, s } = await openStaffPage(browser, {
      appUrl,
      language: 'en',
      viewport: viewports.desktop,
      path: `/admin?campaign=${live.id}`,
      heading: (t) => t.dashboard.title,
    });
    try {
      expect(await page.getByLabel(s.filters.campaign, { exact: true }).inputValue()).toBe(live.id);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: s.export.button, exact: true }).click(),
      ]);
      const rows: Record<string, string>[] = parse(readFileSync(await download.path()), { bom: true, columns: true });
      expect(rows.find((row) => row.id === id)).toMatchObject({
        campaign_id: live.id,
        campaign_code: live.code,
        utm_source: 'instagram',
        utm_medium: '',
      });
      expect(rows.every((row) => row.campaign_id === live.id)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('is counted under the campaign on the reports page filtered by it', async () => {
    // The reports follow the table's stream, in order: the campaign's application first,
    // then one from no campaign, so that the filter has something to leave out.
    await expect.poll(() => campaignTotal(live), { timeout: 20_000 }).toBe(before + 1);
    const everyBefore = await everyTotal();
    await applyThroughPublicFlow(appUrl, randomMobile(), sampleApplication());
    await expect.poll(everyTotal, { timeout: 20_000 }).toBe(everyBefore + 1);
    const { page, context, s } = await openStaffPage(browser, {
      appUrl,
      language: 'en',
      viewport: viewports.desktop,
      path: '/admin/reports',
      heading: (t) => t.reports.title,
    });
    try {
      const total = page.getByTestId('tile-total').locator('.stat-value');
      await expect.poll(() => total.innerText()).toBe((everyBefore + 1).toLocaleString('en-IN'));
      await page.getByLabel(s.reports.campaign, { exact: true }).selectOption(live.id);
      await expect.poll(() => new URL(page.url()).searchParams.get('campaign')).toBe(live.id);
      await expect.poll(() => total.innerText()).toBe((before + 1).toLocaleString('en-IN'));
      // "Top campaigns": the campaign by its name, with its count (the card's table says the numbers).
      const rows = await page
        .getByTestId('chart-campaigns')
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (cell) => cell.textContent)));
      expect(rows).toEqual([[live.name_en, (before + 1).toLocaleString('en-IN'), '0']]);
    } finally {
      await context.close();
    }
  });
});

describe('a link whose campaign does not count', () => {
  it('a paused campaign’s code: the application goes, with the UTM source and no campaign', async () => {
    const { submitted } = await applyFrom(`/?c=${paused.code}&utm_source=instagram`);
    expect(submitted.body.attribution).toEqual({ campaign: paused.code, utm_source: 'instagram' });
    const application = await stored(submitted.id);
    expect(application).toMatchObject({ utm_source: 'instagram' });
    expect(application).not.toHaveProperty('campaign_id');
    expect(application).not.toHaveProperty('campaign_code');
  });

  it('a well-formed code no campaign has: the application goes, with no campaign', async () => {
    const { submitted } = await applyFrom('/?c=zz2345');
    expect(submitted.body.attribution).toEqual({ campaign: 'zz2345' });
    const application = await stored(submitted.id);
    expect(application).not.toHaveProperty('campaign_id');
    expect(application).not.toHaveProperty('campaign_code');
  });

  it('a malformed code and UTM value are dropped on the page: the application goes without them', async () => {
    const { submitted } = await applyFrom('/?c=not-a-code&utm_source=%00');
    expect(submitted.body).not.toHaveProperty('attribution');
    const application = await stored(submitted.id);
    expect(application).not.toHaveProperty('campaign_id');
    expect(application).not.toHaveProperty('utm_source');
  });
});
