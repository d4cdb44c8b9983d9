import 'i18next';
import type { en } from './en';
import type { enForm } from './en-form';
import type { grievanceEn } from './grievance-en';
import type { cardEn } from './member-card-en';
import type { meEn } from './my-application-en';
import type { campaignsEn } from './staff-campaigns-en';
import type { staffGrievancesEn } from './staff-grievances-en';
import type { staffEn } from './staff-en';

// Typed keys and interpolation for t(): English is the reference resource (the
// first-view strings and the form's, which load later into the same namespace). The `staff`
// namespace is added at run time by the /admin chunk (./staff.ts); its `campaigns` key by the
// Campaigns page's own chunk (./staff-campaigns.ts); `card` by the card and verification
// pages' chunks (./member-card.ts); `me` by "My application"'s chunk (./my-application.ts);
// `grievance` by the grievance forms' chunks (./grievance.ts); the staff namespace's
// `grievances` key by the Grievances page's chunk (./staff-grievances.ts).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en & typeof enForm;
      staff: typeof staffEn & { campaigns: typeof campaignsEn; grievances: typeof staffGrievancesEn };
      card: typeof cardEn;
      me: typeof meEn;
      grievance: typeof grievanceEn;
    };
  }
}
