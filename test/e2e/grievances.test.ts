/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GRIEVANCE_DUE_DAYS } from '../../rules/grievances';
import { en } from '../../web/src/i18n/en';
import { grievanceEn } from '../../web/src/i18n/grievance-en';
import { grievanceTa } from '../../web/src/i18n/grievance-ta';
import { meEn } from '../../web/src/i18n/my-application-en';
import { meTa } from '../../web/src/i18n/my-application-ta';
import { staffGrievancesEn } from '../../web/src/i18n/staff-grievances-en';
import { staffGrievancesTa } from '../../web/src/i18n/staff-grievances-ta';
import { ta } from '../../web/src/i18n/ta';
import { hasHorizontalOverflow, launchChromium, platformFonts, screenshot, viewports } from '../support/browser';
import { findLeaks } from '../support/log-scan';
import { applyThroughPublicFlow, randomMobile } from '../support/staff-data';
import { lookAtEveryWidth, openStaffPage } from '../support/staff-browser';
import { queueDrained } from '../support/stand-ins';

// Issue 21's grievances in Chromium against `npm start`: an applicant on a 360 px phone, in
// Tamil, proves their number with the code, opens a grievance from "My application" and
// sees its reference and due date; anyone opens one from the footer's link with a contact
// number. Staff sign in, see each on the Grievances page with its due date and days left,
// answer it (the answer is in the outbox, by WhatsApp; by SMS a link to the answer page,
// which shows it) and close it. Every screen at 360, 768 and 1280 px in both languages, the
// Tamil drawn in the self-hosted font; no number or code of this file in the stack's log.

const appUrl = inject('appUrl');
const texts = {
  en: { ...en, me: meEn, g: grievanceEn, staff: staffGrievancesEn },
  ta: { ...ta, me: meTa, g: grievanceTa, staff: staffGrievancesTa },
} as const;
type Language = keyof typeof texts;
let browser: Browser;
/** The numbers this file used. */
const used = new Set<string>();

interface OutboxMessage {
  readonly to: string;
  readonly kind: string;
  readonly channel: string;
  readonly code?: string;
  readonly body?: string;
  readonly language?: string;
}
const outbox = async () => (await (await fetch(`${appUrl}/dev/outbox.json`)).json()) as OutboxMessage[];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  // Nothing this file's people sent or were sent reached the stack's log: numbers masked, ids only.
  const mine = (await outbox()).filter((m) => used.has(m.to.replace(/^\+?91/, '')));
  const leaks = findLeaks(readFileSync(inject('stackLogFile'), 'utf8'), {
    phones: [...used],
    codes: mine.flatMap((m) => (m.code ? [m.code] : [])),
  });
  expect(leaks).toEqual([]);
});

async function setClockOffset(offsetMs: number): Promise<void> {
  const response = await fetch(`${appUrl}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
  expect(response.status).toBe(200);
}

/** The newest code sent to the number other than `notCode`, once it has arrived. */
async function newCode(mobile: string, notCode: string | undefined): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      code = (await outbox()).find((m) => m.kind === 'otp' && m.to.replace(/^\+/, '') === `91${mobile}`)?.code;
      return code !== undefined && code !== notCode;
    })
    .toBe(true);
  return code!;
}

/** The code step as a visitor does it, a minute after the code the number applied with. */
async function proveNumber(page: Page, language: Language, mobile: string) {
  const s = texts[language];
  const appliedWith = (await outbox()).find((m) => m.kind === 'otp' && m.to === `91${mobile}`)?.code;
  await page.getByLabel(s.step1.mobileLabel, { exact: true }).fill(mobile);
  const send = page.getByRole('button', { name: s.step1.send, exact: true });
  await expect.poll(() => send.isEnabled()).toBe(true);
  await setClockOffset(61_000);
  try {
    await send.click();
    await page.getByLabel(s.step1.otpLabel, { exact: true }).waitFor();
  } finally {
    await setClockOffset(0);
  }
  await page.getByLabel(s.step1.otpLabel, { exact: true }).fill(await newCode(mobile, appliedWith));
  await page.getByRole('button', { name: s.step1.verify, exact: true }).click();
}

/** The due date as the page must say it: about 90 days from now, its month in words, in the page's language. */
function expectedDue(language: Language): string[] {
  const due = new Date(Date.now() + GRIEVANCE_DUE_DAYS * 86_400_000);
  const locale = language === 'ta' ? 'ta-IN' : 'en-IN';
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'Asia/Kolkata' }).format(due);
  return [part({ month: 'long' }), part({ year: 'numeric' })];
}

/** The receipt: a reference of the shape promised and the due date in the page's language; answers the reference. */
async function receipt(page: Page, language: Language): Promise<string> {
  const s = texts[language];
  await page.getByRole('status').filter({ hasText: s.g.received }).waitFor();
  const reference = await page.getByTestId('grievance-reference').innerText();
  expect(reference).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
  const due = await page.getByTestId('grievance-due').innerText();
  for (const piece of expectedDue(language)) expect(due).toContain(piece);
  return reference;
}

/** The Tamil of `element` is drawn in the self-hosted Noto Sans Tamil (this machine has no Tamil font). */
async function expectTamilFont(page: Page, selector: string): Promise<void> {
  const element = page.locator(selector).first();
  await page.evaluate(() => document.fonts.ready);
  const fonts = await platformFonts(page, element);
  expect(
    fonts.find((f) => f.familyName.startsWith('Noto Sans Tamil')),
    `${selector}: ${JSON.stringify(fonts)}`,
  ).toMatchObject({ isCustomFont: true });
}

async function publicContext(language: Language): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: viewports.phone, locale: 'en-IN', reducedMotion: 'reduce' });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  return context;
}

/** This file's tickets, as staff will look for them. */
const tickets: { reference: string; mobile: string; language: Language; via: 'verified' | 'contact' }[] = [];

describe('an applicant in Tamil on a phone', () => {
  it('opens a grievance from "My application" after the code and sees its reference and due date', async () => {
    const s = texts.ta;
    const mobile = randomMobile();
    used.add(mobile);
    await applyThroughPublicFlow(appUrl, mobile, { revenue_district: 'Madurai', assembly_constituency: 'Melur' });
    const context = await publicContext('ta');
    const page = await context.newPage();
    try {
      await page.goto(appUrl);
      await proveNumber(page, 'ta', mobile);
      await page.getByRole('button', { name: s.me.open, exact: true }).click();
      const section = page.getByRole('region', { name: s.g.title });
      await section.getByRole('heading', { name: s.g.title }).waitFor();
      // Nothing written: the field says so, and nothing is sent.
      await section.getByRole('button', { name: s.g.submit, exact: true }).click();
      await section.getByText(s.g.fieldErrors.REQUIRED, { exact: true }).waitFor();
      await section
        .getByLabel(s.g.textLabel, { exact: true })
        .fill('என் விண்ணப்பத்தில் மாவட்டம் தவறாக உள்ளது.\nதயவுசெய்து சரிசெய்யவும்.');
      await section.getByRole('button', { name: s.g.submit, exact: true }).click();
      const reference = await receipt(page, 'ta');
      tickets.push({ reference, mobile, language: 'ta', via: 'verified' });
      await expectTamilFont(page, '[data-testid="grievance-receipt"] p:not(.alert)');
      await page.getByTestId('grievance-receipt').scrollIntoViewIfNeeded();
      await screenshot(page, 'grievance-ta-my-application-360');
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await lookAtEveryWidth(page, 'grievance-ta-my-application');
    } finally {
      await context.close();
    }
  });
});

describe.each(['en', 'ta'] as const)('the grievance form without a code, in %s', (language) => {
  it('is one click from the footer, asks a contact number, and tells the reference and due date', async () => {
    const s = texts[language];
    const mobile = randomMobile();
    used.add(mobile);
    const context = await publicContext(language);
    const page = await context.newPage();
    try {
      await page.goto(appUrl);
      await page.getByRole('contentinfo').getByRole('link', { name: s.legal.grievance, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: s.g.title }).waitFor();
      await lookAtEveryWidth(page, `grievance-${language}-form`);
      await page.getByLabel(s.g.mobileLabel, { exact: true }).fill('58765');
      await page
        .getByLabel(s.g.textLabel, { exact: true })
        .fill(language === 'ta' ? 'என் தரவை அழிக்கவும்.' : 'Erase my data.');
      await page.getByRole('button', { name: s.g.submit, exact: true }).click();
      await page.getByText(s.errors.INVALID_PHONE, { exact: true }).waitFor();
      await page.getByLabel(s.g.mobileLabel, { exact: true }).fill(mobile);
      await page.getByRole('button', { name: s.g.submit, exact: true }).click();
      const reference = await receipt(page, language);
      tickets.push({ reference, mobile, language, via: 'contact' });
      if (language === 'ta') await expectTamilFont(page, '[data-testid="grievance-receipt"] p:not(.alert)');
      await lookAtEveryWidth(page, `grievance-${language}-form-received`);
    } finally {
      await context.close();
    }
  });
});

describe.each(['en', 'ta'] as const)('staff in %s', (language) => {
  it('see a grievance with its due date, answer it (the answer is in the outbox) and close it', async () => {
    const ticket = tickets.find((t) => t.language === language && t.via === 'contact')!;
    const mine = tickets.find((t) => t.via === 'verified')!;
    expect(ticket && mine).toBeTruthy();
    const t = texts[language].staff;
    const { page, context } = await openStaffPage(browser, {
      appUrl,
      language,
      viewport: viewports.desktop,
      path: '/admin/grievances',
      heading: () => t.title,
    });
    try {
      for (const { reference } of [ticket, mine]) {
        const card = page.getByTestId(`grievance-${reference}`);
        await card.waitFor();
        // Opened just now: due in 90 days (89 once past midnight IST), its day shown.
        expect(await card.getByTestId('grievance-days').innerText()).toMatch(/^(90|89)\D|\D(90|89)\D/);
        expect(await card.getByTestId('grievance-due-day').innerText()).not.toBe('');
      }
      if (language === 'ta') await expectTamilFont(page, `[data-testid="grievance-${mine.reference}"] .grievance-text`);
      await lookAtEveryWidth(page, `grievance-${language}-staff-list`);
      await page.setViewportSize(viewports.desktop);

      // The English ticket's number has no WhatsApp: its answer goes by SMS with a link to the answer page.
      await queueDrained(appUrl);
      if (language === 'en') {
        const failed = await fetch(`${appUrl}/dev/whatsapp/fail`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'recipient', times: 1 }),
        });
        expect(failed.status).toBe(200);
      }
      const card = page.getByTestId(`grievance-${ticket.reference}`);
      const answer = language === 'ta' ? 'உங்கள் தரவு நிரந்தரமாக அழிக்கப்பட்டது.' : 'Your data has been erased.';
      await card.getByLabel(t.answerLabel, { exact: true }).fill(answer);
      await card.getByRole('button', { name: t.send, exact: true }).click();
      await page.getByTestId('grievance-notice').filter({ hasText: ticket.reference }).waitFor();
      let sent: OutboxMessage | undefined;
      await expect
        .poll(
          async () => {
            sent = (await outbox()).find((m) => m.kind === 'grievance' && m.to === `91${ticket.mobile}`);
            return sent?.body ?? '';
          },
          { timeout: 20_000 },
        )
        .toContain(ticket.reference);
      if (language === 'ta') {
        expect(sent).toMatchObject({ channel: 'whatsapp', language: 'ta' });
        expect(sent!.body).toContain(answer);
      } else {
        expect(sent!.channel).toBe('sms');
        const link = /\/grievance\?#([^\s]+)/.exec(sent!.body ?? '')?.[1];
        expect(link).toBeDefined();
        const answerPage = await context.newPage();
        await answerPage.goto(`${appUrl}/grievance#${link}`);
        await answerPage.getByTestId('grievance-answer').filter({ hasText: answer }).waitFor();
        await lookAtEveryWidth(answerPage, 'grievance-en-answer-page');
        await answerPage.close();
      }
      await lookAtEveryWidth(page, `grievance-${language}-staff-answered`);
      await page.setViewportSize(viewports.desktop);

      await card.getByRole('button', { name: t.close, exact: true }).click();
      await card.getByRole('button', { name: t.confirm, exact: true }).click();
      await page
        .getByTestId('grievance-notice')
        .filter({ hasText: t.closed.replace('{{reference}}', ticket.reference) })
        .waitFor();
      await card.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
