/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { en } from '../../web/src/i18n/en';
import { enForm } from '../../web/src/i18n/en-form';
import { meEn } from '../../web/src/i18n/my-application-en';
import { meTa } from '../../web/src/i18n/my-application-ta';
import { ta } from '../../web/src/i18n/ta';
import { taForm } from '../../web/src/i18n/ta-form';

// The applicant's side of issue 21 in Chromium: proving a registered number again with a
// fresh code (a minute after the one it applied with), for "My application".

export const applicantTexts = {
  en: { ...en, ...enForm, me: meEn },
  ta: { ...ta, ...taForm, me: meTa },
} as const;
export type ApplicantLanguage = keyof typeof applicantTexts;

export interface OutboxMessage {
  readonly id: string;
  readonly to: string;
  readonly kind: string;
  readonly code?: string;
}

export async function outbox(appUrl: string): Promise<OutboxMessage[]> {
  return (await (await fetch(`${appUrl}/dev/outbox.json`)).json()) as OutboxMessage[];
}

/** The newest code the outbox holds for the number (the outbox lists newest first). */
export async function latestCode(appUrl: string, mobile: string): Promise<string | undefined> {
  return (await outbox(appUrl)).find((m) => m.kind === 'otp' && m.to.replace(/^\+/, '') === `91${mobile}`)?.code;
}

/** The newest code sent to the number other than `notCode`, waiting for it to arrive. */
export async function newCode(appUrl: string, mobile: string, notCode: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      code = await latestCode(appUrl, mobile);
      return code !== undefined && code !== notCode;
    })
    .toBe(true);
  return code!;
}

export async function setClockOffset(appUrl: string, offsetMs: number): Promise<void> {
  const response = await fetch(`${appUrl}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
  expect(response.status).toBe(200);
}

/**
 * The code step as a visitor does it, past the number's resend cooldown after the code it
 * applied with (`appliedWith`); answers the code used.
 */
export async function proveNumber(
  page: Page,
  appUrl: string,
  { language, mobile, appliedWith }: { language: ApplicantLanguage; mobile: string; appliedWith: string },
): Promise<string> {
  const s = applicantTexts[language];
  await page.getByLabel(s.step1.mobileLabel, { exact: true }).fill(mobile);
  const send = page.getByRole('button', { name: s.step1.send, exact: true });
  await expect.poll(() => send.isEnabled()).toBe(true);
  await setClockOffset(appUrl, 61_000);
  try {
    await send.click();
    await page.getByLabel(s.step1.otpLabel, { exact: true }).waitFor();
  } finally {
    await setClockOffset(appUrl, 0);
  }
  const code = await newCode(appUrl, mobile, appliedWith);
  await page.getByLabel(s.step1.otpLabel, { exact: true }).fill(code);
  await page.getByRole('button', { name: s.step1.verify, exact: true }).click();
  return code;
}
