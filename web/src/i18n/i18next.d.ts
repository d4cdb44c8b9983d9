import 'i18next';
import type { en } from './en';
import type { staffEn } from './staff-en';

// Typed keys and interpolation for t(): English is the reference resource. The `staff`
// namespace is added at run time by the /admin chunk (./staff.ts).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; staff: typeof staffEn };
  }
}
