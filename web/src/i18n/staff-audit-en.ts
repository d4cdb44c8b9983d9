// The audit trail's lines in the staff namespace under `audit`: a file of their own because
// staff-en.ts is at the 400-line limit.
export const staffAuditEn = {
  heading: 'Audit trail',
  empty: 'No changes yet.',
  note: 'Note',
  erase: 'Erased',
  export: 'Exported',
  /** The applicant's own correction (issue 21): which fields, never their values. */
  correction: 'Corrected by the applicant: {{fields}}',
  byApplicant: 'the applicant',
  field: {
    name: 'name',
    email: 'email',
    alternate_phone_number: 'alternate phone',
    revenue_district: 'district',
    assembly_constituency: 'assembly constituency',
    education: 'stream of study',
    occupation: 'occupation',
  },
};
