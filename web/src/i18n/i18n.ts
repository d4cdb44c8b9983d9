import i18next, { type i18n as I18n } from 'i18next';
import type { Messages } from './en';
import type { FormMessages } from './en-form';
import { type Language, storeLanguage } from './language';

export type Bundles = Partial<Record<Language, Messages | (Messages & FormMessages)>>;

// Each language is a chunk of its own, and the form's strings a further one: a visitor
// downloads the strings of the language they read, the form's when the form is near,
// and the other language only if they switch.
const loaders: Record<Language, () => Promise<Messages>> = {
  en: async () => (await import('./en')).en,
  ta: async () => (await import('./ta')).ta,
};
const formLoaders: Record<Language, () => Promise<FormMessages>> = {
  en: async () => (await import('./en-form')).enForm,
  ta: async () => (await import('./ta-form')).taForm,
};
/** Instances that show the later steps: a language switch fetches their strings too. */
const formInUse = new WeakSet<I18n>();

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

/** A ready i18next instance with the given languages' strings (init is synchronous). */
export function createI18n(language: Language, bundles: Bundles): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'ta'],
    resources: Object.fromEntries(Object.entries(bundles).map(([lng, translation]) => [lng, { translation }])),
    initAsync: false,
    // React escapes output itself. (Strings that arrive late re-render at once: use-translation.tsx.)
    interpolation: { escapeValue: false },
  });
  syncDocumentLanguage(language);
  instance.on('languageChanged', syncDocumentLanguage);
  return instance;
}

function currentLanguage(instance: I18n): Language {
  return instance.language === 'ta' ? 'ta' : 'en';
}

async function addFormStrings(instance: I18n, language: Language): Promise<void> {
  if (instance.exists('form.submit', { lng: language, fallbackLng: false })) return;
  instance.addResourceBundle(language, 'translation', await formLoaders[language](), true, false);
}

/**
 * The form's strings for the current language (and, from now on, for any language the
 * visitor switches to). Resolves once they can be rendered.
 */
export async function loadFormStrings(instance: I18n): Promise<void> {
  formInUse.add(instance);
  await addFormStrings(instance, currentLanguage(instance));
}

/** Fetches the strings of `language` (once per instance), with the form's if they are in use. */
async function ensureLanguage(instance: I18n, language: Language): Promise<void> {
  if (!instance.hasResourceBundle(language, 'translation')) {
    instance.addResourceBundle(language, 'translation', await loaders[language](), true, false);
  }
  if (formInUse.has(instance)) await addFormStrings(instance, language);
}

/** The instance the app starts with: only the visitor's language is downloaded. */
export async function loadI18n(language: Language): Promise<I18n> {
  return createI18n(language, { [language]: await loaders[language]() });
}

/** The language switch: fetch if needed, change, remember, and let <html lang> follow. */
export async function switchLanguage(instance: I18n, language: Language): Promise<void> {
  storeLanguage(language);
  await ensureLanguage(instance, language);
  await instance.changeLanguage(language);
}
