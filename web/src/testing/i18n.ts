import type { i18n as I18n } from 'i18next';
import { en } from '../i18n/en';
import { enForm } from '../i18n/en-form';
import { createI18n } from '../i18n/i18n';
import type { Language } from '../i18n/language';
import { ta } from '../i18n/ta';
import { taForm } from '../i18n/ta-form';

/** Both languages, loaded at once: what the app has after a visitor switched. */
export function createTestI18n(language: Language): I18n {
  return createI18n(language, { en: { ...en, ...enForm }, ta: { ...ta, ...taForm } });
}
