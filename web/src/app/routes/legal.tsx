import { LegalText } from '../../components/legal-text';
import type { LegalDocumentName } from '../../legal/legal-document';
import { paths } from '../../paths';

/** /terms, /privacy and /notice: the text on a page of its own; the application, if begun, is kept in this tab. */
export function LegalRoute({ name }: { name: LegalDocumentName }) {
  return (
    <article className="card legal-page">
      <div className="card-body">
        <LegalText
          name={name}
          level={1}
          after={(texts) => (
            <a className="button button-secondary legal-back" href={paths.home.getHref()}>
              {texts.backToForm}
            </a>
          )}
        />
      </div>
    </article>
  );
}
