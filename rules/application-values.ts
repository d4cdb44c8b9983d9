// The fixed choices of the application and its statuses: plain values, no schema, so
// that the public page's first view and the staff area can use them without zod.

export const genders = ['Male', 'Female'] as const;
export const educations = ['Arts & Science', 'Engineering', 'Law', 'Medicine', 'Management'] as const;
/** Accepted only in rows imported from the first version. */
export const legacyEducations = [...educations, 'Others'] as const;
export const occupations = ['Student', 'Private', 'Government', 'Self Employed', 'Business', 'Home Maker'] as const;
export const applicationStatuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

/**
 * The version of the legal texts (web/src/legal/): the terms and the privacy policy shown with
 * the form, and the notice (DPDP Act 2023 s.5) shown before the number is sent; kept with
 * each consent. Any change of any of them, in either language, is a new version.
 * 2026-11-01: the checkbox alone, no text to read; 2026-11-24: the first written texts;
 * 2026-11-28: the notice (issue 21), so a consent from then on names a version that had it.
 */
export const TERMS_VERSION = '2026-11-28';
