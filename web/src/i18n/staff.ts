import type { i18n as I18n } from 'i18next';
import { staffEn } from './staff-en';
import { staffTa } from './staff-ta';

/** The staff area's namespace: its strings travel in the /admin chunk, never in the public page's bundle. */
const STAFF_NS = 'staff';

const staffResources = { en: staffEn, ta: staffTa } as const;

/** Adds the staff strings to the running i18next instance (idempotent). */
export function addStaffTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries(staffResources)) {
    if (!instance.hasResourceBundle(language, STAFF_NS)) instance.addResourceBundle(language, STAFF_NS, bundle);
  }
}
