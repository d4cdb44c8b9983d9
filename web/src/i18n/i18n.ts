import i18next, { type i18n as I18n } from 'i18next';
import { en } from './en';
import { type Language, storeLanguage } from './language';
import { ta } from './ta';

export const resources = {
  en: { translation: en },
  ta: { translation: ta },
} as const;

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

/** A ready i18next instance (resources are bundled, so init is synchronous). */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'ta'],
    resources,
    initAsync: false,
    // React escapes output itself.
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  syncDocumentLanguage(language);
  instance.on('languageChanged', syncDocumentLanguage);
  return instance;
}

/** The language switch: change, remember, and let <html lang> follow. */
export async function switchLanguage(instance: I18n, language: Language): Promise<void> {
  storeLanguage(language);
  await instance.changeLanguage(language);
}
