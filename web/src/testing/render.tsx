import { type RenderResult, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider } from '../i18n/use-translation';
import { type RuntimeConfig, RuntimeConfigContext } from '../config';
import { createTestI18n } from './i18n';
import type { Language } from '../i18n/language';
import { addStaffTranslations } from '../i18n/staff';

/**
 * Renders with a fresh i18next instance and the test runtime config, as the app does after
 * start-up (with the staff strings, as the /admin chunk adds them).
 */
export function renderWithI18n(ui: ReactElement, language: Language = 'en'): RenderResult & { i18n: I18n } {
  const i18n = createTestI18n(language);
  addStaffTranslations(i18n);
  return {
    i18n,
    ...render(
      <RuntimeConfigContext.Provider value={testConfig}>
        <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
      </RuntimeConfigContext.Provider>,
    ),
  };
}

/** A fetch stand-in answering JSON with the given status. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const testConfig: RuntimeConfig = {
  stage: 'test',
  apiBasePath: '/api',
  defaultLanguage: 'en',
  captcha: { siteKey: 'test-site-key', scriptUrl: '/dev/captcha.js' },
  cognito: { region: 'ap-south-1', userPoolId: 'local_test', userPoolClientId: 'client' },
  dataNotice: {
    contact: { name: 'R. Kumar, Data Protection Officer', email: 'privacy@example.org', phone: '+91 44 2345 6789' },
    rejectedApplicationDays: 365,
  },
};
