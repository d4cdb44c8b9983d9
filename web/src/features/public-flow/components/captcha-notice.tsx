import { useTranslation } from '../../../i18n/use-translation';
import { splitTagged } from '../../../lib/tagged-text';

const googlePolicies = {
  privacy: 'https://policies.google.com/privacy',
  terms: 'https://policies.google.com/terms',
} as const;

/**
 * Google's reCAPTCHA notice. Its badge is hidden (styles/global.css: our CSP refuses the
 * inline styles it is drawn with, so it would sit unstyled over the page), which Google
 * allows when the user flow shows this text with these two links. The links open in a new
 * tab, so that the number typed stays; a Tamil reader gets Google's Tamil version.
 */
export function CaptchaNotice() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage === 'ta' ? '?hl=ta' : '';
  return (
    <p className="captcha-notice">
      {splitTagged(t('step1.captchaNotice')).map((part, index) =>
        part.tag === 'privacy' || part.tag === 'terms' ? (
          <a key={index} href={`${googlePolicies[part.tag]}${language}`} target="_blank" rel="noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
