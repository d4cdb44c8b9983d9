import { useTranslation } from '../i18n/use-translation';
import { switchLanguage } from '../i18n/i18n';
import { type Language, languages } from '../i18n/language';

/** English and Tamil as two buttons; each names its language in that language. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  const select = (language: Language) => {
    if (language !== current) void switchLanguage(i18n, language);
  };
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-switch-button"
          aria-pressed={language === current}
          onClick={() => select(language)}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
