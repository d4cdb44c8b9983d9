// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { errorMessages } from '../../../rules/errors';
import { en } from './en';
import { errorText } from './error-text';
import { createI18n } from './i18n';
import { ta } from './ta';

describe('errorText', () => {
  it('says a known code in the language loaded, even when English is not loaded', () => {
    const i18n = createI18n('ta', { ta });
    expect(errorText(i18n.t, 'OTP_EXPIRED')).toBe(ta.errors.OTP_EXPIRED);
    expect(errorText(createI18n('en', { en }).t, 'OTP_EXPIRED')).toBe(errorMessages.OTP_EXPIRED);
  });

  it.each(['SOMETHING_NEW', 'constructor', '__proto__', 'errors.INTERNAL', ''])(
    'reads an unknown code (%j) as a generic failure',
    (code) => {
      expect(errorText(createI18n('ta', { ta }).t, code)).toBe(ta.errors.INTERNAL);
      expect(errorText(createI18n('en', { en }).t, code)).toBe(errorMessages.INTERNAL);
    },
  );
});
