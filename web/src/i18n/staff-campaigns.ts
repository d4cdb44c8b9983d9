import type { i18n as I18n } from 'i18next';
import { campaignsEn } from './staff-campaigns-en';
import { campaignsTa } from './staff-campaigns-ta';

/**
 * Adds the Campaigns page's strings under the staff namespace's `campaigns` key
 * (idempotent). Called by the page itself, so that they travel in its lazy chunk, not in
 * the /admin chunk every staff screen loads.
 */
export function addCampaignTranslations(instance: I18n): void {
  for (const [language, bundle] of Object.entries({ en: campaignsEn, ta: campaignsTa })) {
    if (!instance.exists('campaigns.title', { ns: 'staff', lng: language, fallbackLng: false }))
      instance.addResourceBundle(language, 'staff', { campaigns: bundle }, true, false);
  }
}
