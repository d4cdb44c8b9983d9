import type { Language } from '../i18n/language';

// The terms and the privacy policy the application checkbox refers to. Their version is
// TERMS_VERSION (rules/application-values.ts): each application's consent record keeps it,
// so a change of either text is a new version. Each language is a chunk of its own, fetched
// only when a visitor opens one of them.

/** A paragraph, or a list (an array of items). */
type LegalBlock = string | readonly string[];

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
  /** 'Version {{version}}': the words around the version, kept out of the first view's strings. */
  readonly version: string;
  readonly backToForm: string;
}

export type LegalDocumentName = 'terms' | 'privacy';

const loaders: Record<Language, () => Promise<LegalTexts>> = {
  en: async () => (await import('./legal-en')).legalEn,
  ta: async () => (await import('./legal-ta')).legalTa,
};

export function loadLegalTexts(language: Language): Promise<LegalTexts> {
  return loaders[language]();
}
