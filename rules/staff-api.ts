import * as v from 'valibot';
import { deliveryStatuses, otpChannels } from './api';
import { applicationStatuses } from './application';
import { applicationSourceEntries } from './campaigns';
import { districts } from './districts';
import { staffCardSchema } from './member-card';
import { parseDate } from './ist';
import { campaignIdSchema, reportFiltersSchema } from './report';
import { crossCheck, requestObject, union, uuid } from './schema';
import { isPlainMultilineText } from './text';

// Shapes of the staff API, shared by the handlers and the SPA.

export const pageSizes = [10, 20, 50, 100] as const;
/** Pages the export reads; larger, since it walks every matching row. */
export const EXPORT_PAGE_SIZE = 1000;

const districtNames = new Set(districts.map((d) => d.en));
const day = v.pipe(
  v.string(),
  v.check((s) => parseDate(s) !== undefined, 'INVALID_DATE'),
);

const applicationFilterFields = requestObject({
  q: v.pipe(
    v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'TOO_LONG'))),
    v.transform((s) => s || undefined),
  ),
  status: v.optional(v.picklist(applicationStatuses, 'INVALID')),
  district: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => districtNames.has(s), 'INVALID'),
    ),
  ),
  from: v.optional(day),
  to: v.optional(day),
  /** A campaign's id (issue 19): only the applications that came through it. */
  campaign: v.optional(campaignIdSchema),
});

export const applicationFiltersSchema = v.pipe(
  applicationFilterFields,
  crossCheck<v.InferOutput<typeof applicationFilterFields>>((f, addIssue) => {
    if (!(!f.from || !f.to || f.from <= f.to)) addIssue('to', 'INVALID_RANGE');
    // The search index's tokens carry no campaign: a search within a campaign could only
    // filter the matches after reading them (issue 19 leaves it out).
    if (f.q && f.campaign) addIssue('campaign', 'NOT_WITH_SEARCH');
  }),
);
export type ApplicationFilters = v.InferOutput<typeof applicationFiltersSchema>;

/** An export's id, as exports-start makes it (a UUID). */
export const exportIdSchema = uuid('INVALID');

/**
 * POST /api/admin/applications/search: the dashboard's page. The search term (names and
 * phone numbers) travels in this body, never in a URL: CloudFront's standard logs keep
 * every query string. `exportId` names the export these pages are read for, so that the
 * server counts its rows.
 */
export const listRequestSchema = requestObject({
  filters: v.optional(applicationFiltersSchema, () => ({})),
  pageSize: v.optional(
    v.pipe(
      v.number('INVALID'),
      v.check((n) => (pageSizes as readonly number[]).includes(n) || n === EXPORT_PAGE_SIZE, 'INVALID'),
    ),
    10,
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(2000, 'INVALID'))),
  exportId: v.optional(exportIdSchema),
});
export type ListRequest = v.InferInput<typeof listRequestSchema>;

export const auditEntrySchema = v.object({
  at: v.string(),
  /** The email at the time; the stable subject when the token carried none (an access token). */
  by: v.string(),
  /**
   * `card-revoke`, `card-reissue`: an admin's change to the member's card (issue 20);
   * `membership-backfill`: `npm run members:backfill` gave an approved member what they lacked;
   * `correction`: the applicant corrected `fields` themselves (issue 21), by "applicant".
   */
  action: v.picklist(['status', 'erase', 'export', 'card-revoke', 'card-reissue', 'membership-backfill', 'correction']),
  from: v.optional(v.string()),
  to: v.optional(v.string()),
  note: v.optional(v.string()),
  /** Of a correction: the names of the fields corrected, never their values. */
  fields: v.optional(v.array(v.string())),
});
export type AuditEntry = v.InferOutput<typeof auditEntrySchema>;

/** An application as staff see it: the spec's fields, without internal keys. */
export const applicationRowSchema = v.object({
  id: v.string(),
  phone_number: v.string(),
  alternate_phone_number: v.optional(v.string()),
  name: v.string(),
  email: v.optional(v.string()),
  gender: v.optional(v.string()),
  date_of_birth: v.optional(v.string()),
  revenue_district: v.optional(v.string()),
  assembly_constituency: v.optional(v.string()),
  education: v.optional(v.string()),
  specialization: v.optional(v.string()),
  occupation: v.optional(v.string()),
  address: v.optional(v.string()),
  is_already_member: v.optional(v.boolean()),
  want_to_volunteer: v.optional(v.boolean()),
  want_to_join_and_volunteer: v.optional(v.boolean()),
  motivation: v.optional(v.string()),
  application_status: v.picklist(applicationStatuses),
  submitted_at: v.string(),
  updated_at: v.optional(v.string()),
  // Where the applicant came from, frozen at submit (issue 19, rules/campaigns.ts ApplicationSource).
  ...applicationSourceEntries,
  // Given on the first approval, never changed (issue 20, rules/member-number.ts).
  member_number: v.optional(v.string()),
});
export type ApplicationRow = v.InferOutput<typeof applicationRowSchema>;

export const listResponseSchema = v.object({
  items: v.array(applicationRowSchema),
  nextCursor: v.optional(v.string()),
  total: v.number(),
});
export type ListResponse = v.InferOutput<typeof listResponseSchema>;

/** A decision notice that went to the applicant, with what its provider last reported. */
export const decisionNoticeSchema = v.object({
  decision: v.picklist(['approved', 'rejected']),
  channel: v.picklist(otpChannels),
  sentAt: v.string(),
  status: v.picklist(deliveryStatuses),
  /** The provider's code when the delivery failed (e.g. 131026, TEXT_BLOCKED). */
  errorCode: v.optional(v.string()),
});
export type DecisionNotice = v.InferOutput<typeof decisionNoticeSchema>;

export const applicationDetailSchema = v.object({
  application: applicationRowSchema,
  audit: v.array(auditEntrySchema),
  /** Newest first; empty when none went (or notices are off). */
  notices: v.optional(v.array(decisionNoticeSchema), () => []),
  /**
   * The member's referral code (issued on their first approval) and what their link
   * brought: applications, and those of them approved (issue 19). Absent: neither.
   */
  referrals: v.optional(
    v.object({
      code: v.nullable(v.string()),
      brought: v.pipe(v.number(), v.safeInteger()),
      approved: v.pipe(v.number(), v.safeInteger()),
    }),
  ),
  /** The member's card (issue 20), once the first approval issued it. */
  card: v.optional(staffCardSchema),
});
export type ApplicationDetail = v.InferOutput<typeof applicationDetailSchema>;

export const statusChangeRequestSchema = requestObject({
  ids: v.pipe(
    v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
    v.minLength(1, 'REQUIRED'),
    v.maxLength(100, 'TOO_MANY'),
  ),
  status: v.picklist(applicationStatuses, 'INVALID'),
  note: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(500, 'TOO_LONG'), v.check(isPlainMultilineText, 'INVALID_CHARACTERS')),
  ),
});
export type StatusChangeRequest = v.InferOutput<typeof statusChangeRequestSchema>;

export const statusChangeResponseSchema = v.object({
  changed: v.array(v.string()),
  /** Already had the requested status: nothing written, no audit entry. */
  unchanged: v.optional(v.array(v.string()), () => []),
  notFound: v.array(v.string()),
  /**
   * Not changed in the time the request had (a large selection while others change the
   * same applications): nothing written for them; send them again.
   */
  notDone: v.optional(v.array(v.string()), () => []),
});
export type StatusChangeResponse = v.InferOutput<typeof statusChangeResponseSchema>;

/** An export of the dashboard's list (`filters`) or of the Reports page's rows (`report`). */
export const exportStartRequestSchema = union([
  requestObject({ filters: applicationFiltersSchema }),
  requestObject({ report: reportFiltersSchema }),
]);
export type ExportStartRequest = v.InferInput<typeof exportStartRequestSchema>;
export const exportStartResponseSchema = v.object({
  exportId: v.string(),
  total: v.number(),
  /**
   * Whose rows the export holds: the exporter's district ids, or 'all' (issue 17). The
   * file's name carries it (csv.ts, exportFileName). Absent from an older server's answer.
   */
  scope: v.optional(v.union([v.literal('all'), v.array(v.string())])),
});
export type ExportStartResponse = v.InferOutput<typeof exportStartResponseSchema>;
/**
 * The browser's count is not asked for: the server counted the rows it served for the
 * export. A `rows` sent by an older page is accepted and ignored.
 */
export const exportCompleteRequestSchema = requestObject({
  rows: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
});
export const exportCompleteResponseSchema = v.object({ exportId: v.string(), rows: v.number() });
