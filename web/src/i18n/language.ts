import type { RuntimeConfig } from '../../../rules/runtime-config';

export type Language = RuntimeConfig['defaultLanguage'];
export const languages: readonly Language[] = ['en', 'ta'];

/** The visitor's choice, kept across visits (spec: key app_language, value ta or en). */
export const LANGUAGE_STORAGE_KEY = 'app_language';

function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'ta';
}

export function readStoredLanguage(): Language | undefined {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): fall back to the default.
    return undefined;
  }
}

export function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not fatal: the choice simply lasts for this visit only.
  }
}

/** The stored choice, else the configured default, else English. */
export function initialLanguage(configuredDefault?: Language): Language {
  return readStoredLanguage() ?? configuredDefault ?? 'en';
}
