import { type ReactNode, type Ref, useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { TERMS_VERSION } from '../../../rules/application-values';
import type { Language } from '../i18n/language';
import { useRuntimeConfig } from '../config';
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

/** The terms, the privacy policy or the notice in the page's language, fetched when first shown. */
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
          {section.blocks.map((block, index) => (
            <LegalBlockView key={index} block={block} texts={loaded.texts} />
          ))}
        </section>
      ))}
      {after?.(loaded.texts)}
    </div>
  );
}

type LegalBlock = LegalTexts['notice']['sections'][number]['blocks'][number];

/** A paragraph, a list, or the stage's data contact, with the stage's figures filled in. */
function LegalBlockView({ block, texts }: { block: LegalBlock; texts: LegalTexts }) {
  const { dataNotice } = useRuntimeConfig();
  const fill = (text: string) => text.replace('{{days}}', String(dataNotice.rejectedApplicationDays));
  if (typeof block === 'string') return <p>{fill(block)}</p>;
  if ('contact' in block) {
    const { name, email, phone } = dataNotice.contact;
    return (
      <address className="legal-contact" data-testid="data-contact">
        <strong>{name}</strong>
        <br />
        {texts.contactLabels.email}: <a href={`mailto:${email}`}>{email}</a>
        {phone && (
          <>
            <br />
            {texts.contactLabels.phone}: <a href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</a>
          </>
        )}
      </address>
    );
  }
  return (
    <ul>
      {block.map((item) => (
        <li key={item}>{fill(item)}</li>
      ))}
    </ul>
  );
}
