/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import type { Messages } from '../../web/src/i18n/en';
import type { FormMessages } from '../../web/src/i18n/en-form';

// The public page's form in Chromium, filled as an applicant does, for the browser-tier
// files that walk the flow (public-flow, attribution).

/** The first view's strings and the form's (a chunk of their own in the SPA), together. */
export type PublicTexts = Messages & FormMessages;

export interface Answers {
  readonly dateOfBirth?: string;
}

/** Every field of step 2 with a valid answer (Madurai East, a student), the terms accepted. */
export async function fillApplicationForm(page: Page, s: PublicTexts, answers: Answers = {}): Promise<void> {
  await page.getByLabel(s.form.alternatePhone, { exact: true }).fill('9000000001');
  await page.getByLabel(s.form.name, { exact: true }).fill('Kavya Raman');
  await page.getByLabel(s.form.email).fill('kavya@example.com');
  await page.getByRole('radio', { name: s.options.gender.Female, exact: true }).check();
  await page.getByLabel(s.form.dateOfBirth, { exact: true }).fill(answers.dateOfBirth ?? '2001-05-14');
  await page.getByLabel(s.form.district, { exact: true }).selectOption('Madurai');
  await page.getByLabel(s.form.constituency, { exact: true }).selectOption('Madurai East');
  await page.getByLabel(s.form.education, { exact: true }).selectOption('Engineering');
  await page.getByLabel(s.form.occupation, { exact: true }).selectOption('Student');
  await page.getByRole('radio', { name: s.form.no, exact: true }).check();
  await page.getByLabel(s.form.motivation, { exact: true }).fill('To serve the students of my district.');
  await page.getByRole('checkbox').check();
}
