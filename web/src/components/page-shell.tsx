import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { istDate } from '../../../rules/ist';
import { paths } from '../paths';
import { LanguageSwitch } from './language-switch';
import { LegalLink } from './legal-link';

/** Header (logo, language switch), main, footer (year, wing name, the legal texts): the frame of every page. */
export function PageShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const year = istDate(new Date()).year;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="site-header">
        <div className="site-header-inner">
          <a href={paths.home.getHref()} className="brand" aria-label={t('shell.homeLink')}>
            <img className="brand-logo" src="/logo.svg" alt="" width="40" height="40" />
            <span className="brand-name">{t('shell.wingName')}</span>
          </a>
          <LanguageSwitch />
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <p>{t('shell.footer', { year })}</p>
        <nav className="footer-links">
          <LegalLink name="terms">{t('legal.terms')}</LegalLink>
          <LegalLink name="privacy">{t('legal.privacy')}</LegalLink>
          <LegalLink name="notice">{t('legal.notice')}</LegalLink>
          <a href={paths.grievance.getHref()} className="legal-link">
            {t('legal.grievance')}
          </a>
        </nav>
      </footer>
    </div>
  );
}
