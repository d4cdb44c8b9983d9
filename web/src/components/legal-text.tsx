import { type ReactNode, type Ref, useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { TERMS_VERSION } from '../../../rules/application-values';
import type { Language } from '../i18n/language';
import { type LegalDocumentName, type LegalTexts, loadLegalTexts } from '../legal/legal-document';
import { Spinner } from './spinner';

interface LegalTextProps {
  readonly name: LegalDocumentName;
  /** 1 on a page of its own, 2 in a dialog over the form. */
  readonly level: 1 | 2;
  readonly headingId?: string;
  readonly headingRef?: Ref<HTMLHeadingElement>;
  /** What follows the text once it is there (a page's way back), in the same language. */
  readonly after?: (texts: LegalTexts) => ReactNode;
}

/** The terms or the privacy policy in the page's language, fetched when first shown. */
export function LegalText({ name, level, headingId, headingRef, after }: LegalTextProps) {
  const { t, i18n } = useTranslation();
  const language: Language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const [loaded, setLoaded] = useState<
    { language: Language; texts: LegalTexts } | { language: Language; failed: true }
  >();

  useEffect(() => {
    let live = true;
    loadLegalTexts(language).then(
      (texts) => live && setLoaded({ language, texts }),
      () => live && setLoaded({ language, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [language]);

  const Heading = level === 1 ? 'h1' : 'h2';
  const Section = level === 1 ? 'h2' : 'h3';
  const title = (
    <Heading id={headingId} ref={headingRef} tabIndex={-1} className="page-title">
      {t(`legal.${name}`)}
    </Heading>
  );
  if (loaded?.language !== language) {
    return (
      <div className="legal-text">
        {title}
        <Spinner label={t('shell.loading')} />
      </div>
    );
  }
  if ('failed' in loaded) {
    return (
      <div className="legal-text">
        {title}
        <p className="alert alert-error" role="alert">
          {t('errors.NETWORK_ERROR')}
        </p>
      </div>
    );
  }
  const document = loaded.texts[name];
  return (
    <div className="legal-text" data-testid={`legal-${name}`}>
      {title}
      <p className="legal-version">{loaded.texts.version.replace('{{version}}', TERMS_VERSION)}</p>
      <p className="page-intro">{document.intro}</p>
      {document.sections.map((section) => (
        <section key={section.heading} className="legal-section">
          <Section className="legal-heading">{section.heading}</Section>
          {section.blocks.map((block, index) =>
            typeof block === 'string' ? (
              <p key={index}>{block}</p>
            ) : (
              <ul key={index}>
                {block.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ),
          )}
        </section>
      ))}
      {after?.(loaded.texts)}
    </div>
  );
}
