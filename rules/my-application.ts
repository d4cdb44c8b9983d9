import * as v from 'valibot';
import { applicationFieldEntries, applicationStatuses, constituencyIsIn } from './application';
import { notArray } from './schema';
import { applicationRowSchema, decisionNoticeSchema } from './staff-api';

// "My application" (issue 21, DPDP Act 2023 s. 11 to 13): after proving their number with
// a code, an applicant sees everything held about them and may withdraw. The proof is the
// code check's verification (read, not spent: the same visit may still apply), as for
// "Get my card" (rules/member-card.ts).

export const myApplicationRequestSchema = v.strictObject({
  verificationToken: v.pipe(v.string(), v.maxLength(2048)),
});
export type MyApplicationRequest = v.InferOutput<typeof myApplicationRequestSchema>;

/** The consent the application was made with: the terms' and notice's version, in which language, when. */
const consentSchema = v.object({
  termsVersion: v.string(),
  language: v.picklist(['en', 'ta']),
  acceptedAt: v.string(),
});

/** One status the application had, from when (the staff member who set it is not said). */
const statusStepSchema = v.object({ at: v.string(), status: v.picklist(applicationStatuses) });

export const myApplicationResponseSchema = v.object({
  /** Every field as stored, the number included (it is theirs: they just proved it). */
  application: applicationRowSchema,
  consent: v.optional(consentSchema),
  /** Oldest first, starting with the submission. */
  history: v.array(statusStepSchema),
  /** The decision notices sent to them, newest first, with what the provider last reported. */
  messages: v.array(decisionNoticeSchema),
  /** The card link's secret part (`/card#<link>`) of a member with a live card (issue 20). */
  cardLink: v.optional(v.string()),
});
export type MyApplication = v.InferOutput<typeof myApplicationResponseSchema>;

/**
 * POST /api/me/withdraw: the application is erased; `erased` is its id. `confirmationQueued`:
 * a confirmation message is on its way to the number (the stage sends them, and it was queued).
 */
export const withdrawResponseSchema = v.object({ erased: v.string(), confirmationQueued: v.optional(v.boolean()) });
export type WithdrawResponse = v.InferOutput<typeof withdrawResponseSchema>;

/** The actor an applicant's own withdrawal is audited as: the audit says only "the applicant". */
export const APPLICANT_ACTOR = { sub: 'applicant', email: 'applicant' } as const;

/**
 * What an applicant may correct themselves (DPDP Act 2023 s. 12): the rest (the number,
 * the date of birth, the gender, the answers about membership) stays as they applied.
 */
export const correctableFields = [
  'name',
  'email',
  'alternate_phone_number',
  'revenue_district',
  'assembly_constituency',
  'education',
  'occupation',
] as const;
export type CorrectableField = (typeof correctableFields)[number];

const entry = applicationFieldEntries;

/**
 * The changed fields only, each checked as the form checks it. An email given empty is
 * taken away (it is optional); any other field, or one not correctable, is refused.
 */
export const correctionChangesSchema = notArray(
  v.strictObject(
    {
      name: v.optional(entry.name),
      email: v.optional(entry.email),
      alternate_phone_number: v.optional(entry.alternate_phone_number),
      revenue_district: v.optional(entry.revenue_district),
      assembly_constituency: v.optional(entry.assembly_constituency),
      education: v.optional(entry.education),
      occupation: v.optional(entry.occupation),
    },
    'NOT_CORRECTABLE',
  ),
);
export type CorrectionChanges = v.InferOutput<typeof correctionChangesSchema>;

export const correctionRequestSchema = v.strictObject({
  verificationToken: v.pipe(v.string(), v.maxLength(2048)),
  changes: v.unknown(),
});

/**
 * The form's cross-field checks on the application as it would be: the constituency is
 * the district's, the alternate number is not the verified one. Field name → code.
 */
export function correctionProblems(
  current: { readonly revenue_district?: string; readonly assembly_constituency?: string },
  changes: CorrectionChanges,
  verifiedMobile: string,
): Partial<Record<CorrectableField, string>> {
  const problems: Partial<Record<CorrectableField, string>> = {};
  const placeChanged = changes.revenue_district !== undefined || changes.assembly_constituency !== undefined;
  const district = changes.revenue_district ?? current.revenue_district ?? '';
  const constituency = changes.assembly_constituency ?? current.assembly_constituency ?? '';
  if (placeChanged && !constituencyIsIn(district, constituency)) problems.assembly_constituency = 'REQUIRED';
  if (changes.alternate_phone_number === verifiedMobile) problems.alternate_phone_number = 'ALTERNATE_PHONE_SAME';
  return problems;
}

/** POST /api/me/correct: which fields changed (none when every value was already so). */
export const correctionResponseSchema = v.object({ changed: v.array(v.picklist(correctableFields)) });
export type CorrectionResponse = v.InferOutput<typeof correctionResponseSchema>;
