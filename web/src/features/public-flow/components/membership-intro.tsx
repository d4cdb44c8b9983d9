import { useTranslation } from 'react-i18next';

/** Banner, emblem, title and description at the top of the public page. */
export function MembershipIntro() {
  const { t } = useTranslation();
  return (
    <div className="intro">
      <img className="intro-banner" src="/banner.svg" alt="" width="960" height="240" />
      <img className="intro-logo" src="/logo.svg" alt="" width="80" height="80" />
      <h1 className="intro-title">{t('landing.title')}</h1>
      <p className="intro-description">{t('landing.description')}</p>
    </div>
  );
}
