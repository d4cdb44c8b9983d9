import * as v from 'valibot';
import { applicationStatuses } from './application';
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
const consentSchema = v.object({ termsVersion: v.string(), language: v.picklist(['en', 'ta']), acceptedAt: v.string() });

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

/** POST /api/me/withdraw: the application is erased; `erased` is its id, nothing else. */
export const withdrawResponseSchema = v.object({ erased: v.string() });
export type WithdrawResponse = v.InferOutput<typeof withdrawResponseSchema>;

/** The actor an applicant's own withdrawal is audited as: the audit says only "the applicant". */
export const APPLICANT_ACTOR = { sub: 'applicant', email: 'applicant' } as const;
