/// <reference lib="dom" />
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { en, type Messages } from '../../web/src/i18n/en';
import { enForm, type FormMessages } from '../../web/src/i18n/en-form';
import { ta } from '../../web/src/i18n/ta';
import { taForm } from '../../web/src/i18n/ta-form';
import { latestBirthDateForMinimumAge } from '../../rules/age';
import { TERMS_VERSION } from '../../rules/application';
import { districts } from '../../rules/districts';
import { legalEn } from '../../web/src/legal/legal-en';
import { legalTa } from '../../web/src/legal/legal-ta';
import {
  hasHorizontalOverflow,
  launchChromium,
  screenshot,
  screenshotsDir,
  seriousAxeViolations,
  viewports,
} from '../support/browser';
import { contentSecurityPolicy } from '../../lib/constructs/web-hosting';
import { findLeaks } from '../support/log-scan';
import { goodCaptcha, post, submitBody } from '../support/public-flow';
import { type Answers, fillApplicationForm } from '../support/public-browser';
import { queueDrained, resetStandIns } from '../support/stand-ins';

// The public flow in a real browser against `npm start`: number, WhatsApp code (read
// from the sandbox's outbox), form, confirmation; in English and in Tamil, on a cheap
// phone's screen and a desktop's, by mouse and by keyboard alone.
const appUrl = inject('appUrl');
// The first view's strings and the form's (a chunk of their own in the SPA), together.
const texts = { en: { ...en, ...enForm }, ta: { ...ta, ...taForm } } as const satisfies Record<
  string,
  Messages & FormMessages
>;
type Language = keyof typeof texts;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  // Leave the stand-ins as this file found them (another file checks a fresh start),
  // after checking that nothing this file sent reached the stack's log.
  await queueDrained(appUrl);
  const outbox = await outboxMessages();
  const leaks = findLeaks(readFileSync(inject('stackLogFile'), 'utf8'), {
    phones: [...new Set(outbox.map((m) => m.to))],
    codes: outbox.flatMap((m) => (m.code ? [m.code] : [])),
  });
  await resetStandIns(appUrl);
  expect(leaks).toEqual([]);
});

/** A fresh valid Indian mobile number for every test: no test meets another's rate limits. */
function freshMobile(): string {
  return `${randomInt(6, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

interface OutboxMessage {
  readonly id: string;
  readonly to: string;
  readonly kind: string;
  readonly code?: string;
}

async function outboxMessages(): Promise<OutboxMessage[]> {
  return (await (await fetch(`${appUrl}/dev/outbox.json`)).json()) as OutboxMessage[];
}

/** The code of the newest OTP sent to the number (other than `notId`), waiting for it to arrive. */
async function otpFor(mobile: string, notId?: string): Promise<{ id: string; code: string }> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      found = (await outboxMessages()).find((m) => m.kind === 'otp' && m.to.replace(/^\+/, '') === `91${mobile}`);
      return found && found.id !== notId ? found.code : undefined;
    })
    .toMatch(/^\d{6}$/);
  return { id: found!.id, code: found!.code! };
}

async function setClockOffset(offsetMs: number): Promise<void> {
  const response = await fetch(`${appUrl}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
  expect(response.status).toBe(200);
}

/** Registers the number over the API, as a visitor in another tab would. */
async function registerOverApi(mobile: string): Promise<void> {
  const sent = await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(sent.status).toBe(200);
  const { code } = await otpFor(mobile);
  const verified = await post(appUrl, '/api/otp/verify', { mobile, code });
  expect(verified.status).toBe(200);
  const submitted = await post(appUrl, '/api/applications', submitBody(String(verified.body.verificationToken)));
  expect(submitted.status).toBe(201);
}

interface Opened {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly s: Messages & FormMessages;
}

async function open(
  language: Language,
  options: { viewport?: keyof typeof viewports; failCaptcha?: boolean; fakeClock?: boolean } = {},
): Promise<Opened> {
  const context = await browser.newContext({ viewport: viewports[options.viewport ?? 'phone'], locale: 'en-US' });
  // A clock the test can move (it runs on by itself as well): the one-minute wait for a new code.
  if (options.fakeClock) await context.clock.install();
  await context.addInitScript(
    ({ lang, failCaptcha }) => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
      if (failCaptcha) localStorage.setItem('dev_captcha', 'fail');
    },
    { lang: language, failCaptcha: options.failCaptcha ?? false },
  );
  const page = await context.newPage();
  await page.goto(appUrl);
  return { page, context, s: texts[language] };
}

const mobileInput = ({ page, s }: Opened) => page.getByLabel(s.step1.mobileLabel, { exact: true });
const codeInput = ({ page, s }: Opened) => page.getByLabel(s.step1.otpLabel, { exact: true });
const sendButton = ({ page, s }: Opened) => page.getByRole('button', { name: s.step1.send, exact: true });
const alertText = async (page: Page) => (await page.getByRole('alert').first().innerText()).replace(/\s+/g, ' ').trim();

async function sendCode(o: Opened, mobile: string): Promise<void> {
  await mobileInput(o).fill(mobile);
  await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
  await sendButton(o).click();
  await codeInput(o).waitFor();
}

async function verifyCode(o: Opened, code: string): Promise<void> {
  await codeInput(o).fill(code);
  await o.page.getByRole('button', { name: o.s.step1.verify, exact: true }).click();
}

/** Number, code from the outbox, verify: ends on step 2. */
async function reachForm(o: Opened, mobile: string): Promise<void> {
  await sendCode(o, mobile);
  await verifyCode(o, (await otpFor(mobile)).code);
  await o.page.getByRole('heading', { level: 1, name: o.s.form.heading }).waitFor();
}

function fillForm({ page, s }: Opened, answers: Answers = {}): Promise<void> {
  return fillApplicationForm(page, s, answers);
}

const submitButton = ({ page, s }: Opened) => page.getByRole('button', { name: s.form.submit, exact: true });

/** No sideways scrolling, no serious accessibility problem, and a screenshot to look at. */
async function checkScreen(o: Opened, name: string): Promise<void> {
  await o.page.evaluate(() => document.fonts.ready);
  await screenshot(o.page, name);
  expect(await hasHorizontalOverflow(o.page), `${name}: horizontal overflow`).toBe(false);
  expect(await seriousAxeViolations(o.page), name).toEqual([]);
}

/** The texts, of those given, that a select on the page could not show whole (a select cannot wrap). */
async function textsCutInSelect(select: Locator, candidates: readonly string[]): Promise<string[]> {
  return select.evaluate((el, list) => {
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const probe = document.createElement('span');
    Object.assign(probe.style, {
      font: style.font,
      letterSpacing: style.letterSpacing,
      whiteSpace: 'pre',
      position: 'absolute',
      visibility: 'hidden',
    });
    el.parentElement!.append(probe);
    const cut = list.filter((text) => {
      probe.textContent = text;
      return probe.getBoundingClientRect().width > room;
    });
    probe.remove();
    return cut;
  }, candidates);
}

function selectTexts(language: Language): string[] {
  const s = texts[language];
  return [
    s.form.districtPlaceholder,
    s.form.constituencyPlaceholder,
    s.form.educationPlaceholder,
    s.form.occupationPlaceholder,
    ...Object.values(s.options.education),
    ...Object.values(s.options.occupation),
    ...districts.flatMap((d) => [d[language], ...d.constituencies.map((c) => c[language])]),
  ];
}

describe.each(['en', 'ta'] as const)('public flow in %s', (language) => {
  it.each(['phone', 'desktop'] as const)(
    'goes from number to confirmation on a %s screen, every step accessible and within the screen',
    async (viewport) => {
      const o = await open(language, { viewport });
      const { page, s } = o;
      const shot = (step: string) => checkScreen(o, `public-flow-${language}-${viewport}-${step}`);
      try {
        const mobile = freshMobile();
        await expect.poll(() => page.getByTestId('health-status').getAttribute('data-state')).toBe('ok');
        await shot('1-number');

        // The number's message has its line kept free: Send does not move when it appears.
        const sendAt = (await sendButton(o).boundingBox())?.y;
        await mobileInput(o).fill('5876543210');
        await page.getByText(s.errors.INVALID_PHONE_START).waitFor();
        expect((await sendButton(o).boundingBox())?.y).toBe(sendAt);
        await shot('1-number-invalid');
        await mobileInput(o).fill('');

        await sendCode(o, mobile);
        expect(
          (await page.getByRole('status').filter({ hasText: s.step1.otpSentTo }).innerText()).replace(/\s+/g, ' '),
        ).toBe(`${s.step1.otpSentTo} +91 ${mobile}`);
        await shot('2-code-sent');

        await verifyCode(o, (await otpFor(mobile)).code);
        await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
        expect(await page.getByText(s.step1.verified).isVisible()).toBe(true);
        // Every district, constituency and option fits its select: nothing is cut.
        expect(
          await textsCutInSelect(page.getByLabel(s.form.constituency, { exact: true }), selectTexts(language)),
        ).toEqual([]);
        await shot('3-form');

        await submitButton(o).click();
        expect(await alertText(page)).toBe(s.errors.VALIDATION_FAILED);
        expect(await page.getByLabel(s.form.alternatePhone, { exact: true }).getAttribute('aria-invalid')).toBe('true');
        await shot('4-form-errors');

        await fillForm(o);
        await submitButton(o).click();
        await page.getByRole('heading', { level: 1, name: s.confirmation.slogan }).waitFor();
        expect(await page.locator('p[lang="ta"]', { hasText: taForm.confirmation.thanks }).isVisible()).toBe(true);
        expect(await page.locator('p[lang="en"]', { hasText: enForm.confirmation.thanks }).isVisible()).toBe(true);
        // Only that the application went is kept (for a reload): not the number, not the answers.
        expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toMatch(new RegExp(`${mobile}|Kavya`));
        await shot('5-confirmation');
      } finally {
        await o.context.close();
      }
    },
  );

  it('clears a wrong code and says how many attempts are left', async () => {
    const o = await open(language);
    try {
      const mobile = freshMobile();
      await sendCode(o, mobile);
      const { code } = await otpFor(mobile);
      const wrong = String(((Number(code) - 100_000 + 1) % 900_000) + 100_000);
      await verifyCode(o, wrong);
      await expect
        .poll(() => alertText(o.page))
        .toBe(`${o.s.errors.OTP_INVALID} ${o.s.step1.attemptsLeft_other.replace('{{count}}', '4')}`);
      expect(await codeInput(o).inputValue()).toBe('');
      expect(await codeInput(o).getAttribute('aria-invalid')).toBe('true');
      // The right code still works afterwards.
      await verifyCode(o, code);
      await o.page.getByRole('heading', { level: 1, name: o.s.form.heading }).waitFor();
    } finally {
      await o.context.close();
    }
  });

  it('says an expired code has expired', async () => {
    const o = await open(language);
    try {
      const mobile = freshMobile();
      await sendCode(o, mobile);
      const { code } = await otpFor(mobile);
      await setClockOffset(301_000);
      try {
        await verifyCode(o, code);
        await expect.poll(() => alertText(o.page)).toBe(o.s.errors.OTP_EXPIRED);
        expect(await codeInput(o).inputValue()).toBe('');
      } finally {
        await setClockOffset(0);
      }
    } finally {
      await o.context.close();
    }
  });

  it('"change phone number" goes back to an empty number entry', async () => {
    const o = await open(language);
    try {
      await sendCode(o, freshMobile());
      await codeInput(o).fill('123');
      expect(await o.page.getByTestId('resend-otp').isDisabled()).toBe(true);
      await o.page.getByRole('button', { name: o.s.step1.changeNumber, exact: true }).click();
      expect(await mobileInput(o).inputValue()).toBe('');
      expect(await codeInput(o).count()).toBe(0);
      expect(await mobileInput(o).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await sendButton(o).isDisabled()).toBe(true);
      expect(await o.page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await o.context.close();
    }
  });

  it("refuses an applicant under 18 with the spec's message", async () => {
    const o = await open(language);
    try {
      await reachForm(o, freshMobile());
      const dob = o.page.getByLabel(o.s.form.dateOfBirth, { exact: true });
      const tooYoung = latestBirthDateForMinimumAge(new Date(Date.now() + 2 * 86_400_000));
      await fillForm(o, { dateOfBirth: tooYoung });
      await submitButton(o).click();
      expect(await alertText(o.page)).toBe(o.s.errors.UNDER_AGE);
      expect(await dob.getAttribute('aria-invalid')).toBe('true');
      expect(await dob.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await o.page.locator(`#${await dob.getAttribute('id')}-error`).innerText()).toBe(
        o.s.fieldErrors.UNDER_AGE,
      );
    } finally {
      await o.context.close();
    }
  });

  it('sends a registered number its code like any other, and says "already registered" after it, in both languages', async () => {
    const mobile = freshMobile();
    await registerOverApi(mobile);
    const earlier = await otpFor(mobile);
    const o = await open(language);
    try {
      // Past the number's one-minute wait since the code it applied with.
      await setClockOffset(61_000);
      try {
        await sendCode(o, mobile);
      } finally {
        await setClockOffset(0);
      }
      await verifyCode(o, (await otpFor(mobile, earlier.id)).code);
      const alert = o.page.getByRole('alert');
      await alert.locator('p[lang="en"]').waitFor();
      expect(await alert.locator('p[lang="en"]').innerText()).toBe(en.errors.ALREADY_REGISTERED);
      expect(await alert.locator('p[lang="ta"]').innerText()).toBe(ta.errors.ALREADY_REGISTERED);
      // In place of the form, and nothing to verify any more.
      expect(await codeInput(o).count()).toBe(0);
      expect(await o.page.getByLabel(o.s.form.name, { exact: true }).count()).toBe(0);
      await checkAtEveryWidth(o, `already-registered-${language}`);
      // A reload says it again; "Change phone number" starts over.
      await o.page.reload();
      await alert.locator('p[lang="en"]').waitFor();
      await o.page.getByRole('button', { name: o.s.step1.changeNumber, exact: true }).click();
      expect(await mobileInput(o).inputValue()).toBe('');
    } finally {
      await o.context.close();
    }
  });

  it('refuses at submit a number that another tab registered meanwhile', async () => {
    const mobile = freshMobile();
    const o = await open(language);
    try {
      await reachForm(o, mobile);
      await fillForm(o);
      // Another tab sends a new code for the same number (past the one-minute cool-down) and applies first.
      await setClockOffset(61_000);
      try {
        await registerOverApiAfter(mobile);
      } finally {
        await setClockOffset(0);
      }
      await submitButton(o).click();
      const alert = o.page.getByRole('alert');
      await alert.locator('p[lang="en"]').waitFor();
      expect(await alert.locator('p[lang="en"]').innerText()).toBe(en.errors.ALREADY_REGISTERED);
      expect(await alert.locator('p[lang="ta"]').innerText()).toBe(ta.errors.ALREADY_REGISTERED);
      expect(await o.page.getByLabel(o.s.form.name, { exact: true }).inputValue()).toBe('Kavya Raman');
    } finally {
      await o.context.close();
    }
  });

  it('shows the captcha message when the captcha refuses, and lets the next send through', async () => {
    const o = await open(language, { failCaptcha: true });
    try {
      const mobile = freshMobile();
      await mobileInput(o).fill(mobile);
      await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
      await sendButton(o).click();
      await expect.poll(() => alertText(o.page)).toBe(o.s.errors.CAPTCHA_FAILED);
      expect(await codeInput(o).count()).toBe(0);
      expect((await outboxMessages()).some((m) => m.to === `91${mobile}`)).toBe(false);
      // localStorage.dev_captcha = 'fail' refuses one send, as the README says: the next goes (issue 13, item 10).
      await sendButton(o).click();
      await codeInput(o).waitFor();
      expect((await otpFor(mobile)).code).toMatch(/^\d{6}$/);
    } finally {
      await o.context.close();
    }
  });

  it("says a failed send in our words, never the provider's, when neither WhatsApp nor SMS takes it", async () => {
    await queueDrained(appUrl); // A welcome message still on its way would take the fault.
    const o = await open(language);
    try {
      await mobileInput(o).fill(freshMobile());
      await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
      for (const [path, mode] of [
        ['/dev/whatsapp/fail', 'recipient'],
        ['/dev/sms/fail', 'http500'],
      ] as const) {
        const armed = await fetch(`${appUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ mode }),
        });
        expect(armed.status, path).toBe(200);
      }
      await sendButton(o).click();
      const alert = o.page.getByRole('alert');
      await alert.waitFor();
      const text = await alert.innerText();
      expect(text).toContain(o.s.errors.SMS_SEND_FAILED);
      expect(text).not.toMatch(/131026|undeliverable|#\d/i); // no provider text (issue 13, item 3)
      expect(await codeInput(o).count()).toBe(0);
    } finally {
      await fetch(`${appUrl}/dev/whatsapp/reset`, { method: 'POST' });
      await fetch(`${appUrl}/dev/sms/reset`, { method: 'POST' });
      await o.context.close();
    }
  });

  it('keeps what was typed, and the verification, across a reload', async () => {
    const o = await open(language);
    try {
      const mobile = freshMobile();
      await reachForm(o, mobile);
      await o.page.getByLabel(o.s.form.name, { exact: true }).fill('Kavya Raman');
      await o.page.getByLabel(o.s.form.district, { exact: true }).selectOption('Madurai');
      await o.page.getByLabel(o.s.form.constituency, { exact: true }).selectOption('Madurai East');
      await o.page.getByRole('radio', { name: o.s.options.gender.Female, exact: true }).check();
      await o.page.reload();

      await o.page.getByRole('heading', { level: 1, name: o.s.form.heading }).waitFor();
      expect(await o.page.getByLabel(o.s.form.verifiedPhone, { exact: true }).inputValue()).toBe(mobile);
      expect(await o.page.getByLabel(o.s.form.name, { exact: true }).inputValue()).toBe('Kavya Raman');
      expect(await o.page.getByLabel(o.s.form.constituency, { exact: true }).inputValue()).toBe('Madurai East');
      expect(await o.page.getByRole('radio', { name: o.s.options.gender.Female, exact: true }).isChecked()).toBe(true);

      // The kept verification still submits.
      await fillForm(o);
      await submitButton(o).click();
      await o.page.getByRole('heading', { level: 1, name: o.s.confirmation.slogan }).waitFor();
    } finally {
      await o.context.close();
    }
  });
});

describe('language switch on the form (issue 13, item 1)', () => {
  it.each([
    ['en', 'ta'],
    ['ta', 'en'],
  ] as const)('turns the form and the errors already shown from %s to %s at once, without typing', async (from, to) => {
    const o = await open(from);
    try {
      await reachForm(o, freshMobile());
      await submitButton(o).click();
      await expect.poll(() => alertText(o.page)).toBe(texts[from].errors.VALIDATION_FAILED);
      await o.page.getByRole('button', { name: texts[to].language[to], exact: true }).click();
      const s = texts[to];
      await o.page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
      expect(await alertText(o.page)).toBe(s.errors.VALIDATION_FAILED);
      expect(await o.page.getByLabel(s.form.name, { exact: true }).count()).toBe(1);
      expect(await o.page.getByRole('button', { name: s.form.submit, exact: true }).count()).toBe(1);
      const name = o.page.getByLabel(s.form.name, { exact: true });
      expect(await o.page.locator(`#${await name.getAttribute('id')}-error`).innerText()).toBe(s.fieldErrors.REQUIRED);
      await screenshot(o.page, `public-flow-switch-${from}-to-${to}`);
    } finally {
      await o.context.close();
    }
  });
});

/** Like registerOverApi, for a number whose earlier code was already used in the browser. */
async function registerOverApiAfter(mobile: string): Promise<void> {
  const previous = await otpFor(mobile);
  const sent = await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha });
  expect(sent.status).toBe(200);
  const { code } = await otpFor(mobile, previous.id);
  const verified = await post(appUrl, '/api/otp/verify', { mobile, code });
  expect(verified.status).toBe(200);
  const submitted = await post(appUrl, '/api/applications', submitBody(String(verified.body.verificationToken)));
  expect(submitted.status).toBe(201);
}

describe('keyboard alone', () => {
  /** Presses Tab (or Shift+Tab) until the element has focus; fails after `max` presses. */
  async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}): Promise<void> {
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`focus never reached ${String(target)}`);
  }

  it('completes the whole flow with Tab, Shift+Tab, arrows, Space, Enter and typing', async () => {
    const o = await open('en', { viewport: 'desktop' });
    const { page, s } = o;
    try {
      const mobile = freshMobile();
      await tabTo(page, mobileInput(o));
      await page.keyboard.type(mobile);
      await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
      await page.keyboard.press('Enter');

      // The code field has focus once the code is sent.
      await expect.poll(() => codeInput(o).evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type((await otpFor(mobile)).code);
      await page.keyboard.press('Enter');

      const heading = page.getByRole('heading', { level: 1, name: s.form.heading });
      await heading.waitFor();
      expect(await heading.evaluate((el) => el === document.activeElement)).toBe(true);

      const field = (label: string) => page.getByLabel(label, { exact: true });
      await tabTo(page, field(s.form.alternatePhone));
      await page.keyboard.type('9000000001');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Kavya Raman');
      await page.keyboard.press('Tab');
      await page.keyboard.type('kavya@example.com');
      await page.keyboard.press('Tab'); // gender: the first radio
      await page.keyboard.press('ArrowRight'); // Female
      await tabTo(page, field(s.form.dateOfBirth)); // day first, whatever the locale (en-US here)
      await page.keyboard.type('14052001');
      await tabTo(page, field(s.form.district)); // a letter jumps to the first district it starts
      await page.keyboard.press('m');
      await tabTo(page, field(s.form.constituency)); // enabled now; arrows choose
      await page.keyboard.press('ArrowDown');
      await tabTo(page, field(s.form.education));
      await page.keyboard.press('ArrowDown');
      await tabTo(page, field(s.form.occupation));
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab'); // already a member: Yes, then No
      await page.keyboard.press('ArrowRight');
      await tabTo(page, field(s.form.motivation));
      await page.keyboard.type('To serve the students of my district.');
      // Back to check the district, and forward again.
      const district = page.getByLabel(s.form.district, { exact: true });
      await tabTo(page, district, { back: true });
      expect(await district.inputValue()).toBe('Madurai');
      await tabTo(page, page.getByRole('checkbox'));
      await page.keyboard.press('Space');
      await tabTo(page, submitButton(o));

      expect(await page.getByRole('radio', { name: s.options.gender.Female, exact: true }).isChecked()).toBe(true);
      expect(await page.getByLabel(s.form.dateOfBirth, { exact: true }).inputValue()).toBe('14/05/2001');
      expect(await page.getByLabel(s.form.constituency, { exact: true }).inputValue()).not.toBe('');
      expect(await page.getByRole('radio', { name: s.form.no, exact: true }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox').isChecked()).toBe(true);

      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: s.confirmation.slogan }).waitFor();
    } finally {
      await o.context.close();
    }
  });
});

/**
 * The same screen at 360, 768 and 1280 px: within the width, accessible, and screenshots of
 * the whole page and of what the screen shows (a dialog sits over the screen, not the page).
 */
async function checkAtEveryWidth(o: Opened, name: string): Promise<void> {
  for (const viewport of ['phone', 'tablet', 'desktop'] as const) {
    await o.page.setViewportSize(viewports[viewport]);
    await checkScreen(o, `${name}-${viewports[viewport].width}`);
    await o.page.screenshot({ path: join(screenshotsDir, `${name}-${viewports[viewport].width}-screen.png`) });
  }
  await o.page.setViewportSize(viewports.phone);
}

const legalTexts = { en: legalEn, ta: legalTa } as const;
/** A test that checks screens at three widths (axe each time) needs more than the default minute. */
const SCREENS_TIMEOUT = 180_000;

describe.each(['en', 'ta'] as const)('issue 13, the public page, in %s', (language) => {
  const legal = legalTexts[language];

  it(
    'opens the terms, the privacy policy and the data notice from the checkbox, and the policy from the footer, without losing the form (item 4)',
    async () => {
      const o = await open(language);
      const { page, s } = o;
      try {
        await reachForm(o, freshMobile());
        await page.getByLabel(s.form.name, { exact: true }).fill('Kavya Raman');
        const checkbox = page.getByRole('checkbox');
        const dialog = page.getByRole('dialog');

        for (const [index, [name, title]] of (
          [
            ['terms', s.legal.terms],
            ['privacy', s.legal.privacy],
            ['notice', s.legal.notice],
          ] as const
        ).entries()) {
          const link = page.locator('label.checkbox').getByRole('link').nth(index);
          expect(await link.getAttribute('href')).toBe(`/${name}`);
          await link.click();
          await dialog.getByRole('heading', { level: 2, name: title }).waitFor();
          await dialog.getByText(legal[name].sections[0]!.heading, { exact: true }).waitFor();
          expect(await dialog.getByText(TERMS_VERSION).count()).toBe(1);
          await checkAtEveryWidth(o, `public-${language}-${name}-dialog`);
          // Escape closes it; nothing of the form changed, the box is still unticked.
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
          expect(await checkbox.isChecked()).toBe(false);
          expect(await page.getByLabel(s.form.name, { exact: true }).inputValue()).toBe('Kavya Raman');
        }

        // The privacy policy says what the product does: DPDP rights, erasure, the wing's office.
        const footerLink = page.locator('footer').getByRole('link', { name: s.legal.privacy, exact: true });
        await footerLink.click();
        const privacy = legal.privacy.sections.map((section) => section.heading);
        for (const heading of privacy)
          await dialog.getByRole('heading', { level: 3, name: heading, exact: true }).waitFor();
        await dialog.getByRole('button', { name: s.legal.close, exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await footerLink.evaluate((el) => el === document.activeElement)).toBe(true);

        // Its own page (a new tab, a shared link), and back to the form as it was.
        await page.goto(`${appUrl}/privacy`);
        await page.getByRole('heading', { level: 1, name: s.legal.privacy }).waitFor();
        await checkAtEveryWidth(o, `public-${language}-privacy-page`);
        await page.getByRole('link', { name: legal.backToForm, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
        expect(await page.getByLabel(s.form.name, { exact: true }).inputValue()).toBe('Kavya Raman');
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );

  it(
    'offers the data notice under Send before the number goes, over the step and as its own page, the number kept (issue 21)',
    async () => {
      const o = await open(language);
      const { page, s } = o;
      try {
        const mobile = freshMobile();
        await mobileInput(o).fill(mobile);
        const line = page.locator('form .data-notice');
        expect((await line.innerText()).replace(/\s+/g, ' ')).toBe(s.step1.dataNotice.replace(/<\/?\w+>/g, ''));
        // One short line of fine print at 360 px: at most two lines of its own size.
        const { height, lineHeight } = await line.evaluate((el) => ({
          height: el.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5,
        }));
        expect(height, `${language}: the notice line's height`).toBeLessThanOrEqual(2 * lineHeight + 1);

        const dialog = page.getByRole('dialog');
        const linkName = /<notice>(.*)<\/notice>/.exec(s.step1.dataNotice)![1]!;
        const link = line.getByRole('link', { name: linkName, exact: true });
        expect(await link.getAttribute('href')).toBe('/notice');
        await link.click();
        await dialog.getByRole('heading', { level: 2, name: s.legal.notice, exact: true }).waitFor();
        for (const section of legal.notice.sections)
          await dialog.getByRole('heading', { level: 3, name: section.heading, exact: true }).waitFor();
        expect(await dialog.getByText(TERMS_VERSION).count()).toBe(1);
        // The local stack's contact (local/stack.ts), as a stage's comes from lib/stages.ts.
        const contact = dialog.getByTestId('data-contact');
        expect(await contact.getByRole('link', { name: 'privacy@example.com', exact: true }).getAttribute('href')).toBe(
          'mailto:privacy@example.com',
        );
        expect(await dialog.innerText()).toContain('365');
        await checkAtEveryWidth(o, `public-${language}-notice-dialog`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect(await mobileInput(o).inputValue()).toBe(mobile);
        expect(await sendButton(o).isEnabled()).toBe(true);

        // The footer of every public page links it too.
        const footerLink = page.locator('footer').getByRole('link', { name: s.legal.notice, exact: true });
        expect(await footerLink.getAttribute('href')).toBe('/notice');

        // Its own page (a shared link, a new tab), and back to the number as it was.
        await page.goto(`${appUrl}/notice`);
        await page.getByRole('heading', { level: 1, name: s.legal.notice, exact: true }).waitFor();
        await page.getByTestId('data-contact').waitFor();
        expect(await page.locator('footer').getByRole('link', { name: s.legal.notice, exact: true }).count()).toBe(1);
        await checkAtEveryWidth(o, `public-${language}-notice-page`);
        await page.getByRole('link', { name: legal.backToForm, exact: true }).click();
        await mobileInput(o).waitFor();
        expect(await mobileInput(o).inputValue()).toBe(mobile);
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );

  it(
    'says at the fifth wrong code that the code is void, closes the box and offers a new code once the wait allows (item 5)',
    async () => {
      const o = await open(language, { fakeClock: true });
      const { page, s } = o;
      try {
        const mobile = freshMobile();
        await sendCode(o, mobile);
        const first = await otpFor(mobile);
        const wrong = String(((Number(first.code) - 100_000 + 1) % 900_000) + 100_000);
        for (let left = 4; left >= 1; left--) {
          await verifyCode(o, wrong);
          await expect.poll(() => alertText(page)).toContain(String(left));
        }
        await verifyCode(o, wrong);
        await expect.poll(() => alertText(page)).toBe(s.code.tooManyAttempts);
        expect(await codeInput(o).isDisabled()).toBe(true);
        expect(await page.getByTestId('resend-otp').isDisabled()).toBe(true);
        expect(await page.getByTestId('resend-otp').innerText()).toMatch(/0:\d\d/);
        await checkAtEveryWidth(o, `public-${language}-code-void`);

        // "Change phone number", the same number again: back to the same code, still void, with the wait.
        await page.getByRole('button', { name: s.step1.changeNumber, exact: true }).click();
        await mobileInput(o).fill(mobile);
        await expect.poll(() => sendButton(o).isEnabled()).toBe(true);
        await sendButton(o).click();
        await expect.poll(() => alertText(page)).toBe(s.code.tooManyAttempts);
        expect(await codeInput(o).isDisabled()).toBe(true);

        // The wait is over (on the page and on the server): a new code, and the box opens again.
        await setClockOffset(61_000);
        try {
          await page.clock.fastForward('01:01');
          const resend = page.getByTestId('resend-otp');
          await expect.poll(() => resend.isEnabled()).toBe(true);
          expect(await resend.innerText()).toBe(s.step1.resend);
          await resend.click();
          const second = await otpFor(mobile, first.id);
          await expect.poll(() => codeInput(o).isEnabled()).toBe(true);
          await verifyCode(o, second.code);
          await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
        } finally {
          await setClockOffset(0);
        }
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );

  it('"change phone number" and the same number again goes back to the code already sent (item 5)', async () => {
    const o = await open(language);
    const { page, s } = o;
    try {
      const mobile = freshMobile();
      await sendCode(o, mobile);
      const { code } = await otpFor(mobile);
      const sent = (await outboxMessages()).filter((m) => m.to === `91${mobile}`).length;
      await page.getByRole('button', { name: s.step1.changeNumber, exact: true }).click();
      await sendCode(o, mobile);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect((await outboxMessages()).filter((m) => m.to === `91${mobile}`)).toHaveLength(sent);
      await verifyCode(o, code);
      await page.getByRole('heading', { level: 1, name: s.form.heading }).waitFor();
    } finally {
      await o.context.close();
    }
  });

  it(
    'says that an Indian mobile number starts with 6, 7, 8 or 9 (item 10)',
    async () => {
      const o = await open(language);
      try {
        await mobileInput(o).fill('5876543210');
        await o.page.getByText(o.s.errors.INVALID_PHONE_START, { exact: true }).waitFor();
        expect(await o.page.getByText(o.s.errors.INVALID_PHONE, { exact: true }).count()).toBe(0);
        expect(await sendButton(o).isDisabled()).toBe(true);
        await checkAtEveryWidth(o, `public-${language}-number-first-digit`);
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );

  it('takes "some details are missing" away once every field is fixed (item 10)', async () => {
    const o = await open(language);
    try {
      await reachForm(o, freshMobile());
      await submitButton(o).click();
      await expect.poll(() => alertText(o.page)).toBe(o.s.errors.VALIDATION_FAILED);
      await fillForm(o);
      await expect.poll(() => o.page.getByRole('alert').count()).toBe(0);
      expect(await o.page.getByText(o.s.errors.VALIDATION_FAILED).count()).toBe(0);
    } finally {
      await o.context.close();
    }
  });

  it('keeps the thank-you across a reload (item 10)', async () => {
    const o = await open(language);
    try {
      await reachForm(o, freshMobile());
      await fillForm(o);
      await submitButton(o).click();
      const thanks = o.page.getByRole('heading', { level: 1, name: o.s.confirmation.slogan });
      await thanks.waitFor();
      await o.page.reload();
      await thanks.waitFor();
      expect(await mobileInput(o).count()).toBe(0);
    } finally {
      await o.context.close();
    }
  });

  it(
    'shows nothing about the service while it is up, and a notice when it is down (item 10)',
    async () => {
      const o = await open(language);
      const { page, s } = o;
      try {
        const status = page.getByTestId('health-status');
        await expect.poll(() => status.getAttribute('data-state')).toBe('ok');
        expect(await status.innerText()).toBe('');
        expect(await page.getByText(/Service online|சேவை இயங்குகிறது/).count()).toBe(0);

        // The API cannot be reached at all.
        await page.route('**/api/health', (route) => route.abort('connectionrefused'));
        await page.reload();
        await expect.poll(() => status.getAttribute('data-state')).toBe('error');
        expect(await status.innerText()).toBe(s.health.error);
        await checkAtEveryWidth(o, `public-${language}-service-down`);
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );
});

describe("issue 15: reCAPTCHA's badge under our CSP (item 8)", () => {
  /**
   * Appended to the local stand-in of api.js: the badge as Google's script adds it, a
   * wrapper at the end of the body holding a div.grecaptcha-badge drawn with inline style
   * attributes (fixed at the bottom right, mostly off the screen until hovered), its frame
   * and a hidden response box.
   */
  const googleBadge = `
(function () {
  var wrapper = document.createElement('div');
  wrapper.innerHTML =
    '<div class="grecaptcha-badge" data-style="bottomright" style="width: 256px; height: 60px; display: block; ' +
    'transition: right 0.3s; position: fixed; bottom: 14px; right: -186px; box-shadow: gray 0px 0px 5px; ' +
    'border-radius: 2px; overflow: hidden;"><div class="grecaptcha-logo"><iframe title="reCAPTCHA" width="256" ' +
    'height="60" role="presentation" frameborder="0" scrolling="no"></iframe></div><div class="grecaptcha-error"></div>' +
    '<textarea id="g-recaptcha-response" name="g-recaptcha-response" class="g-recaptcha-response" style="width: 250px; ' +
    'height: 40px; border: 1px solid rgb(193, 193, 193); margin: 10px 25px; padding: 0px; resize: none; display: none;">' +
    '</textarea></div>';
  document.body.appendChild(wrapper);
})();
`;

  it(
    "hides the badge and shows Google's notice with both links instead, in English and in Tamil, within a phone's width",
    async () => {
      const o = await open('en');
      const { page } = o;
      try {
        // The deployed policy's style-src, applied to style attributes (what it refuses of the
        // badge). Not the whole policy: the dev server injects the app's own CSS as <style>
        // elements, which the built site serves as files instead.
        const styleSrc = contentSecurityPolicy('ap-south-1')
          .split('; ')
          .find((directive) => directive.startsWith('style-src '))!;
        await page.route(`${appUrl}/`, async (route) => {
          const response = await route.fetch();
          await route.fulfill({
            response,
            headers: {
              ...response.headers(),
              'content-security-policy': styleSrc.replace(/^style-src /, 'style-src-attr '),
            },
          });
        });
        await page.route('**/dev/captcha.js', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, body: `${await response.text()}\n${googleBadge}` });
        });
        await page.addInitScript(() => {
          const refused: string[] = [];
          Object.assign(window, { refused });
          document.addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
        });
        await page.reload();
        const refused = () => page.evaluate(() => (window as unknown as { refused: string[] }).refused);

        // The captcha script loads when the visitor starts on the number.
        await mobileInput(o).fill(freshMobile());
        const badge = page.locator('.grecaptcha-badge');
        await badge.waitFor({ state: 'attached' });
        // The premise: our CSP refuses the badge its inline styles (and nothing else is refused).
        await expect.poll(refused).toContain('style-src-attr');
        expect(new Set(await refused())).toEqual(new Set(['style-src-attr']));
        expect(await badge.evaluate((el) => getComputedStyle(el).boxShadow)).toBe('none');
        await expect.poll(() => sendButton(o).isEnabled()).toBe(true);

        for (const language of ['en', 'ta'] as const) {
          const s = texts[language];
          if (language === 'ta') await page.getByRole('button', { name: s.language.ta, exact: true }).click();
          const notice = page.locator('form .captcha-notice');
          await expect
            .poll(async () => (await notice.innerText()).replace(/\s+/g, ' '))
            .toBe(s.step1.captchaNotice.replace(/<\/?\w+>/g, ''));
          for (const [tag, url] of [
            ['privacy', 'https://policies.google.com/privacy'],
            ['terms', 'https://policies.google.com/terms'],
          ] as const) {
            const name = new RegExp(`<${tag}>(.*)</${tag}>`).exec(s.step1.captchaNotice)![1]!;
            const link = notice.getByRole('link', { name, exact: true });
            expect(await link.isVisible(), `${language} ${tag}`).toBe(true);
            // Google's own Tamil version for a Tamil reader.
            expect(await link.getAttribute('href')).toBe(language === 'ta' ? `${url}?hl=ta` : url);
          }
          // At 360, 768 and 1280 px: the badge is not shown (nor its frame), nothing is wider
          // than the screen, the notice is all on the screen.
          for (const viewport of ['phone', 'tablet', 'desktop'] as const) {
            await page.setViewportSize(viewports[viewport]);
            const width = viewports[viewport].width;
            expect(await badge.isVisible(), `${language} ${width}: badge`).toBe(false);
            expect(await page.getByTitle('reCAPTCHA').isVisible()).toBe(false);
            const box = (await notice.boundingBox())!;
            expect(box.x >= 0 && box.x + box.width <= width, `${language} ${width}: notice within the width`).toBe(
              true,
            );
          }
          await checkAtEveryWidth(o, `captcha-notice-${language}`);
        }
      } finally {
        await o.context.close();
      }
    },
    SCREENS_TIMEOUT,
  );
});
