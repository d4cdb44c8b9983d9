/// <reference lib="dom" />
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localTotpSecret } from '../../local/cognito';
import { totpCode } from '../../local/totp';
import { launchChromium, seriousAxeViolations, viewports, wordsBrokenAcrossLines } from '../support/browser';
import { readLocalEndpoints } from '../support/staff-data';
import { lookAtEveryWidth, seededAdmin, staffTexts, type StaffLanguage } from '../support/staff-browser';
import { createStaffByCommand } from '../support/staff-users';

// Issue 14, item 3: staff sign-in needs an authenticator. In Chromium against `npm start`
// (cognito-local with the MFA setup of local/cognito-mfa.ts): a new user's first sign-in
// enrols one (QR code and the key as text, then a first code), the next asks for a code,
// and after the staff command's `reset-mfa` the user enrols again.

const appUrl = inject('appUrl');
const dataDir = inject('localDataDir');
const marker = Date.now().toString(36);
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Texts = (typeof staffTexts)[StaffLanguage];

async function open(language: StaffLanguage, width: keyof typeof viewports = 'desktop') {
  const context = await browser.newContext({ viewport: viewports[width], locale: 'en-IN', reducedMotion: 'reduce' });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', lang);
  }, language);
  const page = await context.newPage();
  await page.goto(`${appUrl}/admin`);
  const s = staffTexts[language];
  await page.getByRole('heading', { level: 1, name: s.login.title }).waitFor();
  return { page, context, s };
}

async function password(page: Page, s: Texts, user: { email: string; password: string }) {
  await page.getByLabel(s.login.email, { exact: true }).fill(user.email);
  await page.getByLabel(s.login.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: s.login.login, exact: true }).click();
}

async function newPassword(page: Page, s: Texts, chosen: string) {
  await page.getByRole('heading', { level: 1, name: s.newPassword.title }).waitFor();
  await page.getByLabel(s.newPassword.newPassword, { exact: true }).fill(chosen);
  await page.getByLabel(s.newPassword.confirm, { exact: true }).fill(chosen);
  await page.getByRole('button', { name: s.newPassword.submit, exact: true }).click();
}

/** The enrolment screen, as a newcomer without a phone reads it: the QR code is there, the key is copied from the text. */
async function readEnrolment(page: Page, s: Texts): Promise<string> {
  await page.getByRole('heading', { level: 1, name: s.totpSetup.title }).waitFor();
  const qr = page.getByRole('img', { name: s.totpSetup.qrAlt });
  await qr.waitFor();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const shown = await page.getByTestId('totp-secret').innerText();
  expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  return shown.replace(/\s/g, '');
}

async function enterCode(page: Page, label: string, submit: string, code: string) {
  await page.getByLabel(label, { exact: true }).fill(code);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

const dashboard = (page: Page, s: Texts) => page.getByRole('heading', { level: 1, name: s.dashboard.title }).waitFor();

/** `npm run staff -- reset-mfa`, as an admin runs it; answers the temporary password it prints. */
async function resetByCommand(email: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'ops/staff.ts', 'reset-mfa', '--email', email],
    { cwd: resolve(import.meta.dirname, '../..'), env: { ...process.env, LOCAL_DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' } },
  );
  expect(stdout).toContain('enrol an authenticator');
  const temporary = /Temporary password: (\S+)/.exec(stdout)?.[1];
  if (!temporary) throw new Error(`no temporary password in: ${stdout}`);
  return temporary;
}

describe('a new staff member', () => {
  const email = `mfa.${marker}@example.org`;
  const chosen = 'Mfa-New-Password-7!';
  let firstSecret = '';

  it('sets a password, enrols an authenticator from the key shown as text, and is signed in', async () => {
    const temporary = await createStaffByCommand(dataDir, email, 'viewer');
    const { page, context, s } = await open('en');
    await password(page, s, { email, password: temporary });
    await newPassword(page, s, chosen);

    firstSecret = await readEnrolment(page, s);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // A wrong first code is refused, in words, and the screen stays.
    const wrong = totpCode(firstSecret) === '000000' ? '111111' : '000000';
    await enterCode(page, s.totpSetup.enterCode, s.totpSetup.submit, wrong);
    await page.getByRole('alert').filter({ hasText: s.totp.wrongCode }).waitFor();
    await enterCode(page, s.totpSetup.enterCode, s.totpSetup.submit, totpCode(firstSecret));
    await dashboard(page, s);
    expect(await page.getByTestId('staff-email').innerText()).toBe(email);
    // What the screen showed is what the pool holds.
    const endpoints = readLocalEndpoints(dataDir);
    expect(await localTotpSecret(endpoints.cognitoEndpoint, { userPoolId: endpoints.userPoolId }, email)).toBe(firstSecret);

    // Signed out, the password alone is not enough: the code screen asks for the app's code.
    await page.getByRole('button', { name: s.session.logout, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: s.login.title }).waitFor();
    await password(page, s, { email, password: chosen });
    await page.getByRole('heading', { level: 1, name: s.totp.title }).waitFor();
    await enterCode(page, s.totp.code, s.totp.submit, wrong);
    await page.getByRole('alert').filter({ hasText: s.totp.wrongCode }).waitFor();
    await enterCode(page, s.totp.code, s.totp.submit, totpCode(firstSecret));
    await dashboard(page, s);
    await context.close();
  });

  it('enrols again after an admin resets the authenticator with the staff command', async () => {
    expect(firstSecret).not.toBe('');
    const temporary = await resetByCommand(email);
    const { page, context, s } = await open('en');
    // The old password, with the old authenticator, opens nothing any more.
    await password(page, s, { email, password: chosen });
    await page.getByRole('alert').filter({ hasText: s.login.wrongCredentials }).waitFor();

    await password(page, s, { email, password: temporary });
    await newPassword(page, s, 'Mfa-Second-Password-7!');
    const secret = await readEnrolment(page, s);
    expect(secret).not.toBe(firstSecret);
    await enterCode(page, s.totpSetup.enterCode, s.totpSetup.submit, totpCode(secret));
    await dashboard(page, s);
    expect(await page.getByTestId('staff-role').innerText()).toBe(s.session.role.viewer);
    await context.close();
  });
});

describe('the enrolment and code screens fit 360, 768 and 1280 px', () => {
  for (const language of ['en', 'ta'] as const) {
    it(`in ${language === 'en' ? 'English' : 'Tamil'}`, async () => {
      const email = `mfa-screens-${language}.${marker}@example.org`;
      const temporary = await createStaffByCommand(dataDir, email, 'admin');
      const { page, context, s } = await open(language, 'phone');
      await password(page, s, { email, password: temporary });
      await newPassword(page, s, 'Mfa-Screens-Password-7!');
      await readEnrolment(page, s);
      await lookAtEveryWidth(page, `staff-mfa-enrol-${language}`);
      await expectWithinCard(page);
      await context.close();

      const code = await open(language, 'phone');
      await password(code.page, code.s, seededAdmin);
      await code.page.getByRole('heading', { level: 1, name: code.s.totp.title }).waitFor();
      await lookAtEveryWidth(code.page, `staff-mfa-code-${language}`);
      await expectWithinCard(code.page);
      await code.context.close();
    });
  }
});

/** Nothing of the login card sticks out of it, and no word is split across two lines, at 360 px. */
async function expectWithinCard(page: Page): Promise<void> {
  await page.setViewportSize(viewports.phone);
  const out = await page.getByTestId('staff-login').evaluate((card) => {
    const box = card.getBoundingClientRect();
    return Array.from(card.querySelectorAll('*'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });
  expect(out).toEqual([]);
  expect(await wordsBrokenAcrossLines(page, '[data-testid="staff-login"] p, [data-testid="staff-login"] label')).toEqual([]);
}
