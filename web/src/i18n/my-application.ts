import type { i18n as I18n } from 'i18next';
import { meEn } from './my-application-en';
import { meTa } from './my-application-ta';

/** "My application"'s namespace: its own, so that adding it never makes i18next think a language's main strings are there. */
export const ME_NS = 'me';

/** Adds both languages' strings (idempotent), from the panel's lazy chunk: the language switch changes everything at once. */
export function addMeTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries({ en: meEn, ta: meTa })) {
    if (!instance.hasResourceBundle(language, ME_NS)) instance.addResourceBundle(language, ME_NS, bundle);
  }
}
