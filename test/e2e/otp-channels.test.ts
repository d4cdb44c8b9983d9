/// <reference lib="dom" />
import { randomInt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, type Messages } from '../../web/src/i18n/en';
import { enForm, type FormMessages } from '../../web/src/i18n/en-form';
import { ta } from '../../web/src/i18n/ta';
import { taForm } from '../../web/src/i18n/ta-form';
import { hasHorizontalOverflow, launchChromium, screenshot, seriousAxeViolations, viewports } from '../support/browser';
import { type StackProcess, startStackProcess } from '../support/local-stack-process';
import { fillApplicationForm } from '../support/public-browser';

// Where the code goes, in Chromium at 360 px, in English and Tamil, against stacks started
// as `npm start` starts them with the stage's channels set (docs/MESSAGING.md):
// - WhatsApp then SMS: WhatsApp refuses (131026) and the code comes by SMS at once; WhatsApp
//   accepts but never delivers and the page offers SMS after the configured time; a busy
//   gateway is tried again while the page says so.
// - WhatsApp only: the flow works by WhatsApp, no SMS offer; a number without WhatsApp is
//   told so in our words.
// - SMS only (no WhatsApp settings at all): the flow works by SMS.
// Screenshots of each new state at 360, 768 and 1280 px go to .test-artifacts/screenshots.

const texts = { en: { ...en, ...enForm }, ta: { ...ta, ...taForm } } as const satisfies Record<
  string,
  Messages & FormMessages
>;
type Language = keyof typeof texts;
const languages = ['en', 'ta'] as const;
const OFFER_AFTER_SECONDS = 3;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function freshMobile(): string {
  return `${randomInt(6, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

interface OutboxMessage {
  readonly id: string;
  readonly to: string;
  readonly kind: string;
  readonly channel?: 'whatsapp' | 'sms';
  readonly status?: string;
  readonly code?: string;
}

const outbox = async (url: string) => (await (await fetch(`${url}/dev/outbox.json`)).json()) as OutboxMessage[];
const sentTo = (m: OutboxMessage, mobile: string) => m.to.replace(/^\+/, '') === `91${mobile}`;

/** The newest code sent to the number by the channel (other than `notId`), waiting for it. */
async function codeFor(url: string, mobile: string, channel: 'whatsapp' | 'sms', notId?: string) {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await outbox(url)).find(
          (m) => m.kind === 'otp' && sentTo(m, mobile) && (m.channel ?? 'whatsapp') === channel,
        );
        return found && found.id !== notId ? found.code : undefined;
      },
      { timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return { id: found!.id, code: found!.code! };
}

async function arm(url: string, path: '/dev/whatsapp/fail' | '/dev/sms/fail', mode: string): Promise<void> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, times: 1 }),
  });
  expect(response.status, `${path} ${mode}`).toBe(200);
}

async function resetFaults(url: string): Promise<void> {
  await fetch(`${url}/dev/whatsapp/reset`, { method: 'POST' });
  await fetch(`${url}/dev/sms/reset`, { method: 'POST' });
}

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly s: Messages & FormMessages;
  readonly language: Language;
}

async function open(url: string, language: Language): Promise<Opened> {
  const context = await browser.newContext({ viewport: viewports.phone, locale: 'en-US' });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  const page = await context.newPage();
  await page.goto(url);
  return { page, context, s: texts[language], language };
}

const mobileInput = ({ page, s }: Opened) => page.getByLabel(s.step1.mobileLabel, { exact: true });
const codeInput = ({ page, s }: Opened) => page.getByLabel(s.step1.otpLabel, { exact: true });
const sendButton = ({ page, s }: Opened) => page.getByRole('button', { name: s.step1.send, exact: true });
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const sentLine = async ({ page }: Opened) => flat(await page.locator('.sent-info .alert').innerText());
const number = (mobile: string) => `+91 ${mobile}`;
const fill = (template: string, mobile: string) => flat(template.replace('{{number}}', number(mobile)));

async function typeNumber(o: Opened, mobile: string): Promise<void> {
  await mobileInput(o).fill(mobile);
  await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
}

async function send(o: Opened, mobile: string): Promise<void> {
  await typeNumber(o, mobile);
  await sendButton(o).click();
  await codeInput(o).waitFor();
}

/** The code, verify, the form, submit: ends on the thank-you. */
async function verifyAndApply(o: Opened, code: string, channel: 'whatsapp' | 'sms'): Promise<void> {
  const { page, s } = o;
  await codeInput(o).fill(code);
  await page.getByRole('button', { name: channel === 'sms' ? s.code.verify : s.step1.verify, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
  // The form says the number was verified, by WhatsApp only when it was.
  expect(
    await page
      .getByLabel(channel === 'sms' ? s.code.verifiedPhoneSms : s.form.verifiedPhone, { exact: true })
      .inputValue(),
  ).toMatch(/^\d{10}$/);
  expect(await page.locator('.field-verified').innerText()).toBe(
    `✓ ${channel === 'sms' ? s.code.verifiedSms : s.step1.verified}`,
  );
  await fillApplicationForm(page, s);
  await page.getByRole('button', { name: s.form.submit, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: s.confirmation.slogan }).waitFor();
}

/** The state at 360, 768 and 1280 px: a screenshot each, no sideways scroll, nothing serious for axe. */
async function shoot(o: Opened, state: string): Promise<void> {
  for (const viewport of ['phone', 'tablet', 'desktop'] as const) {
    await o.page.setViewportSize(viewports[viewport]);
    await o.page.evaluate(() => document.fonts.ready);
    const name = `otp-${state}-${o.language}-${viewports[viewport].width}`;
    await screenshot(o.page, name);
    expect(await hasHorizontalOverflow(o.page), `${name}: horizontal overflow`).toBe(false);
    expect(await seriousAxeViolations(o.page), name).toEqual([]);
  }
  await o.page.setViewportSize(viewports.phone);
}

/** Switches the page's language and back: the line must follow at once, without typing. */
async function switchesLanguage(o: Opened, read: () => Promise<string>, expected: Record<Language, string>) {
  const other: Language = o.language === 'en' ? 'ta' : 'en';
  await o.page.getByRole('button', { name: texts[other].language[other], exact: true }).click();
  await expect.poll(read).toBe(expected[other]);
  await o.page.getByRole('button', { name: texts[o.language].language[o.language], exact: true }).click();
  await expect.poll(read).toBe(expected[o.language]);
}

/** A stack of its own for the enclosing describe block: started before its tests, stopped after them. */
function stackForThisBlock(name: string, env: Record<string, string>): () => StackProcess {
  let stack: StackProcess | undefined;
  beforeAll(async () => {
    stack = await startStackProcess(name, env);
  });
  afterAll(async () => {
    await stack?.stop();
  });
  return () => {
    if (!stack) throw new Error(`the ${name} stack did not start`);
    return stack;
  };
}

describe('WhatsApp with SMS as the fallback', () => {
  const stack = stackForThisBlock('e2e-stack-whatsapp-then-sms', {
    LOCAL_OTP_CHANNELS: 'whatsapp-then-sms',
    LOCAL_SMS_OFFER_AFTER_SECONDS: String(OFFER_AFTER_SECONDS),
  });

  it.each(languages)(
    '%s: WhatsApp refuses the number (131026): the code comes by SMS, the page says so, and the visitor applies',
    async (language) => {
      await resetFaults(stack().url);
      const o = await open(stack().url, language);
      try {
        const mobile = freshMobile();
        await typeNumber(o, mobile);
        await arm(stack().url, '/dev/whatsapp/fail', 'recipient');
        await sendButton(o).click();
        await codeInput(o).waitFor();
        expect(await sentLine(o)).toBe(fill(o.s.code.fellBack, mobile));
        await switchesLanguage(o, () => sentLine(o), {
          en: fill(texts.en.code.fellBack, mobile),
          ta: fill(texts.ta.code.fellBack, mobile),
        });
        expect(await o.page.getByText(o.s.code.smsHint).isVisible()).toBe(true);
        // Nothing of the provider's own text reaches the page.
        expect(await o.page.locator('main').innerText()).not.toMatch(/131026|undeliverable/i);
        await shoot(o, 'fell-back');
        // A reload keeps where the code went (sessionStorage).
        await o.page.reload();
        await codeInput(o).waitFor();
        expect(await sentLine(o)).toBe(fill(o.s.code.fellBack, mobile));

        const { code } = await codeFor(stack().url, mobile, 'sms');
        await verifyAndApply(o, code, 'sms');
      } finally {
        await o.context.close();
      }
    },
  );

  it.each(languages)(
    `%s: WhatsApp accepts but never delivers: SMS is offered after ${OFFER_AFTER_SECONDS} s and works`,
    async (language) => {
      await resetFaults(stack().url);
      const o = await open(stack().url, language);
      try {
        const mobile = freshMobile();
        await typeNumber(o, mobile);
        await arm(stack().url, '/dev/whatsapp/fail', 'never-deliver');
        const sentAt = Date.now();
        await sendButton(o).click();
        await codeInput(o).waitFor();
        expect(await sentLine(o)).toBe(flat(`${o.s.step1.otpSentTo} ${number(mobile)}`));
        const whatsapp = await codeFor(stack().url, mobile, 'whatsapp');

        const offer = o.page.getByTestId('sms-offer');
        await offer.waitFor({ timeout: 15_000 });
        // Not before the configured time, and not long after it.
        const waited = (Date.now() - sentAt) / 1000;
        expect(waited).toBeGreaterThanOrEqual(OFFER_AFTER_SECONDS - 0.5);
        expect(waited).toBeLessThan(OFFER_AFTER_SECONDS + 6);
        expect(flat(await offer.innerText())).toBe(flat(`${o.s.code.notReceived} ${o.s.code.sendBySms}`));
        expect(await o.page.getByTestId('delivery-state').innerText()).toBe('');
        await shoot(o, 'sms-offer');

        await offer.getByRole('button', { name: o.s.code.sendBySms, exact: true }).click();
        await expect.poll(() => sentLine(o)).toBe(fill(o.s.code.switched, mobile));
        expect(await offer.count()).toBe(0);
        const sms = await codeFor(stack().url, mobile, 'sms');
        expect(sms.code).not.toBe(whatsapp.code);
        await shoot(o, 'switched-to-sms');
        await verifyAndApply(o, sms.code, 'sms');
      } finally {
        await o.context.close();
      }
    },
  );

  it.each(languages)('%s: WhatsApp reports the send failed: SMS is offered at once, saying why', async (language) => {
    await resetFaults(stack().url);
    const o = await open(stack().url, language);
    try {
      const mobile = freshMobile();
      await typeNumber(o, mobile);
      await arm(stack().url, '/dev/whatsapp/fail', 'recipient-async');
      await sendButton(o).click();
      await codeInput(o).waitFor();
      const offer = o.page.getByTestId('sms-offer');
      await offer.waitFor({ timeout: 10_000 });
      expect(flat(await offer.innerText())).toBe(flat(`${o.s.code.whatsappFailed} ${o.s.code.sendBySms}`));
      await switchesLanguage(o, async () => flat(await offer.innerText()), {
        en: flat(`${texts.en.code.whatsappFailed} ${texts.en.code.sendBySms}`),
        ta: flat(`${texts.ta.code.whatsappFailed} ${texts.ta.code.sendBySms}`),
      });
      await shoot(o, 'whatsapp-failed');
      await offer.getByRole('button', { name: o.s.code.sendBySms, exact: true }).click();
      await expect.poll(() => sentLine(o)).toBe(fill(o.s.code.switched, mobile));
      const sms = await codeFor(stack().url, mobile, 'sms');
      await codeInput(o).fill(sms.code);
      await o.page.getByRole('button', { name: o.s.code.verify, exact: true }).click();
      await o.page.getByRole('heading', { level: 1, name: o.s.form.heading }).waitFor();
    } finally {
      await o.context.close();
    }
  });

  it.each(languages)("%s: API Gateway's 429 is tried again while the page says it is busy", async (language) => {
    await resetFaults(stack().url);
    const o = await open(stack().url, language);
    try {
      const mobile = freshMobile();
      let release: () => void = () => undefined;
      const released = new Promise<void>((done) => (release = done));
      let calls = 0;
      await o.page.route('**/api/otp/request', async (route) => {
        calls += 1;
        if (calls === 1) {
          await route.fulfill({
            status: 429,
            contentType: 'application/json',
            body: '{"message":"Too Many Requests"}',
          });
          return;
        }
        await released; // Held while the notice is looked at.
        await route.continue();
      });
      await typeNumber(o, mobile);
      await sendButton(o).click();
      const notice = o.page.getByRole('status').filter({ hasText: o.s.errors.SERVICE_BUSY });
      await notice.waitFor();
      await switchesLanguage(o, async () => flat(await o.page.locator('.busy-notice').innerText()), {
        en: texts.en.errors.SERVICE_BUSY,
        ta: texts.ta.errors.SERVICE_BUSY,
      });
      await shoot(o, 'busy');
      release();
      await codeInput(o).waitFor();
      expect(calls).toBe(2);
      expect(await o.page.locator('.busy-notice').count()).toBe(0);
      const { code } = await codeFor(stack().url, mobile, 'whatsapp');
      await codeInput(o).fill(code);
      await o.page.getByRole('button', { name: o.s.step1.verify, exact: true }).click();
      await o.page.getByRole('heading', { level: 1, name: o.s.form.heading }).waitFor();
    } finally {
      await o.context.close();
    }
  });
});

describe('WhatsApp only', () => {
  const stack = stackForThisBlock('e2e-stack-whatsapp', {
    LOCAL_OTP_CHANNELS: 'whatsapp',
    LOCAL_SMS_OFFER_AFTER_SECONDS: String(OFFER_AFTER_SECONDS),
  });

  it.each(languages)(
    '%s: the flow works end to end by WhatsApp, with "Delivered" and no SMS offer',
    async (language) => {
      const o = await open(stack().url, language);
      try {
        const mobile = freshMobile();
        await send(o, mobile);
        expect(await sentLine(o)).toBe(flat(`${o.s.step1.otpSentTo} ${number(mobile)}`));
        await expect
          .poll(() => o.page.getByTestId('delivery-state').innerText(), { timeout: 15_000 })
          .toBe(`✓ ${o.s.code.delivered}`);
        await shoot(o, 'whatsapp-delivered');
        // Past the offer time: still no offer, on a stage without SMS.
        await o.page.waitForTimeout((OFFER_AFTER_SECONDS + 1) * 1000);
        expect(await o.page.getByTestId('sms-offer').count()).toBe(0);
        const { code } = await codeFor(stack().url, mobile, 'whatsapp');
        expect((await outbox(stack().url)).some((m) => m.channel === 'sms' && sentTo(m, mobile))).toBe(false);
        await verifyAndApply(o, code, 'whatsapp');
      } finally {
        await o.context.close();
      }
    },
  );

  it.each(languages)('%s: a number without WhatsApp is told so in our words, with what to do', async (language) => {
    await resetFaults(stack().url);
    const o = await open(stack().url, language);
    try {
      await typeNumber(o, freshMobile());
      await arm(stack().url, '/dev/whatsapp/fail', 'recipient');
      await sendButton(o).click();
      const alert = o.page.getByRole('alert');
      await alert.waitFor();
      expect(flat(await alert.innerText())).toBe(o.s.sendFailure.noWhatsapp);
      await switchesLanguage(o, async () => flat(await alert.innerText()), {
        en: texts.en.sendFailure.noWhatsapp,
        ta: texts.ta.sendFailure.noWhatsapp,
      });
      expect(await codeInput(o).count()).toBe(0);
      await shoot(o, 'no-whatsapp');
    } finally {
      await o.context.close();
    }
  });
});

describe('SMS only (no WhatsApp settings at all)', () => {
  const stack = stackForThisBlock('e2e-stack-sms', { LOCAL_OTP_CHANNELS: 'sms' });

  it.each(languages)('%s: the flow works end to end by SMS, and the page says so', async (language) => {
    const o = await open(stack().url, language);
    try {
      const mobile = freshMobile();
      await send(o, mobile);
      expect(await sentLine(o)).toBe(fill(o.s.code.smsSentTo, mobile));
      expect(await o.page.getByText(o.s.code.smsHint).isVisible()).toBe(true);
      await shoot(o, 'sms-sent');
      const { code } = await codeFor(stack().url, mobile, 'sms');
      expect((await outbox(stack().url)).some((m) => m.channel === 'whatsapp' && sentTo(m, mobile))).toBe(false);
      expect(await o.page.getByTestId('sms-offer').count()).toBe(0);
      await verifyAndApply(o, code, 'sms');
    } finally {
      await o.context.close();
    }
  });
});
