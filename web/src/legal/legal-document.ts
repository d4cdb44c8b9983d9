import type { Language } from '../i18n/language';

// The terms and the privacy policy the application checkbox refers to, and the notice the
// number step links to (DPDP Act 2023 s.5: shown before any personal data is sent). Their
// version is TERMS_VERSION (rules/application-values.ts): each application's consent record
// keeps it, so a change of any text is a new version. Each language is a chunk of its own,
// fetched only when a visitor opens one of them.

/**
 * Where the stage's data contact goes (dataNotice in /config.json): the text is the
 * repository's, the person is each stage's.
 */
export const CONTACT_BLOCK = { contact: true } as const;

/**
 * A paragraph, a list (an array of items), or the data contact. `{{days}}` in a paragraph or
 * an item is the stage's retention of a rejected application.
 */
type LegalBlock = string | readonly string[] | typeof CONTACT_BLOCK;

interface LegalSection {
  readonly heading: string;
  readonly blocks: readonly LegalBlock[];
}

interface LegalDocument {
  readonly title: string;
  readonly intro: string;
  readonly sections: readonly LegalSection[];
}

export interface LegalTexts {
  readonly terms: LegalDocument;
  readonly privacy: LegalDocument;
  readonly notice: LegalDocument;
  /** The words before the contact's e-mail and phone. */
  readonly contactLabels: { readonly email: string; readonly phone: string };
  /** 'Version {{version}}': the words around the version, kept out of the first view's strings. */
  readonly version: string;
  readonly backToForm: string;
}

export type LegalDocumentName = 'terms' | 'privacy' | 'notice';

const loaders: Record<Language, () => Promise<LegalTexts>> = {
  en: async () => (await import('./legal-en')).legalEn,
  ta: async () => (await import('./legal-ta')).legalTa,
};

export function loadLegalTexts(language: Language): Promise<LegalTexts> {
  return loaders[language]();
}
