import type { i18n as I18n } from 'i18next';
import { staffGrievancesEn } from './staff-grievances-en';
import { staffGrievancesTa } from './staff-grievances-ta';

/**
 * Adds the Grievances page's strings under the staff namespace's `grievances` key
 * (idempotent). Called by the page itself, so that they travel in its lazy chunk, not in
 * the /admin chunk every staff screen loads.
 */
export function addStaffGrievanceTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries({ en: staffGrievancesEn, ta: staffGrievancesTa })) {
    if (!instance.exists('grievances.title', { ns: 'staff', lng: language, fallbackLng: false }))
      instance.addResourceBundle(language, 'staff', { grievances: bundle }, true, false);
  }
}
