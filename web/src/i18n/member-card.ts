import type { i18n as I18n } from 'i18next';
import { cardEn } from './member-card-en';
import { cardTa } from './member-card-ta';

/** The card pages' namespace: its own, so that adding it never makes i18next think a language's main strings are there. */
export const CARD_NS = 'card';

/**
 * Adds both languages' card strings (idempotent). Called by the card and verification
 * pages themselves, so that the strings travel in their lazy chunks; both languages at
 * once, so that the language switch changes everything at once without a fetch.
 */
export function addCardTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries({ en: cardEn, ta: cardTa })) {
    if (!instance.hasResourceBundle(language, CARD_NS)) instance.addResourceBundle(language, CARD_NS, bundle);
  }
}
