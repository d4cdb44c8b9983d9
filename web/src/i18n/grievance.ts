import type { i18n as I18n } from 'i18next';
import { grievanceEn } from './grievance-en';
import { grievanceTa } from './grievance-ta';

/** The grievance forms' and answer page's namespace (issue 21): its own, as "My application"'s is. */
export const GRIEVANCE_NS = 'grievance';

/** Adds both languages' strings (idempotent), from the lazy chunks that show them: the switch changes everything at once. */
export function addGrievanceTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries({ en: grievanceEn, ta: grievanceTa })) {
    if (!instance.hasResourceBundle(language, GRIEVANCE_NS)) instance.addResourceBundle(language, GRIEVANCE_NS, bundle);
  }
}
