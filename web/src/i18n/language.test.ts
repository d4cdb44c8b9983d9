// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createTestI18n } from '../testing/i18n';
import { LANGUAGE_STORAGE_KEY, initialLanguage } from './language';

afterEach(() => localStorage.clear());

describe('initial language', () => {
  it('is English when nothing is stored or configured', () => {
    expect(initialLanguage()).toBe('en');
  });

  it('follows the configured default', () => {
    expect(initialLanguage('ta')).toBe('ta');
  });

  it("prefers the visitor's stored choice over the configured default", () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(initialLanguage('ta')).toBe('en');
  });

  it('ignores a stored value that is not a language', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    expect(initialLanguage('ta')).toBe('ta');
  });

  it('sets <html lang> to the language in use', () => {
    const i18n = createTestI18n('ta');
    expect(document.documentElement.lang).toBe('ta');
    expect(i18n.t('landing.title')).toBe('உறுப்பினராக இணையுங்கள்');
  });
});
