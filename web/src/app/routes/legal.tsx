import { LegalText } from '../../components/legal-text';
import { useTranslation } from '../../i18n/use-translation';
import type { LegalDocumentName } from '../../legal/legal-document';
import { paths } from '../../paths';

/**
 * /terms, /privacy and /notice: the text on a page of its own; the application, if begun, is
 * kept in this tab. The notice's page also leads to the grievance form (issue 21).
 */
export function LegalRoute({ name }: { name: LegalDocumentName }) {
  const { t } = useTranslation();
  return (
    <article className="card legal-page">
      <div className="card-body">
        <LegalText
          name={name}
          level={1}
          after={(texts) => (
            <>
              {name === 'notice' && (
                <a className="button button-secondary legal-back" href={paths.grievance.getHref()}>
                  {t('legal.grievance')}
                </a>
              )}
              <a className="button button-secondary legal-back" href={paths.home.getHref()}>
                {texts.backToForm}
              </a>
            </>
          )}
        />
      </div>
    </article>
  );
}
