import 'i18next';
import type { en } from './en';

// Typed keys and interpolation for t(): English is the reference resource.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
