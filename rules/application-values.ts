// The fixed choices of the application and its statuses: plain values, no schema, so
// that the public page's first view and the staff area can use them without zod.

export const genders = ['Male', 'Female'] as const;
export const educations = ['Arts & Science', 'Engineering', 'Law', 'Medicine', 'Management'] as const;
/** Accepted only in rows imported from the first version. */
export const legacyEducations = [...educations, 'Others'] as const;
export const occupations = ['Student', 'Private', 'Government', 'Self Employed', 'Business', 'Home Maker'] as const;
export const applicationStatuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

/** The version of the terms and privacy text shown with the form; kept with each consent. */
export const TERMS_VERSION = '2026-11-01';
