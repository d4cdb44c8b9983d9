import * as z from 'zod';
import { deliveryStatuses, otpChannels } from './api';
import { applicationStatuses } from './application';
import { districts } from './districts';
import { parseDate } from './ist';
import { reportFiltersSchema } from './report';
import { isPlainMultilineText } from './text';

// Shapes of the staff API, shared by the handlers and the SPA.

export const pageSizes = [10, 20, 50, 100] as const;
/** Pages the export reads; larger, since it walks every matching row. */
export const EXPORT_PAGE_SIZE = 1000;

const districtNames = new Set(districts.map((d) => d.en));
const day = z.string().refine((s) => parseDate(s) !== undefined, 'INVALID_DATE');

export const applicationFiltersSchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(100, 'TOO_LONG')
      .optional()
      .transform((s) => s || undefined),
    status: z.enum(applicationStatuses, 'INVALID').optional(),
    district: z
      .string()
      .refine((s) => districtNames.has(s), 'INVALID')
      .optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'INVALID_RANGE', path: ['to'] });
export type ApplicationFilters = z.infer<typeof applicationFiltersSchema>;

/** An export's id, as exports-start makes it (a UUID). */
export const exportIdSchema = z.uuid('INVALID');

/**
 * POST /api/admin/applications/search: the dashboard's page. The search term (names and
 * phone numbers) travels in this body, never in a URL: CloudFront's standard logs keep
 * every query string. `exportId` names the export these pages are read for, so that the
 * server counts its rows.
 */
export const listRequestSchema = z.object({
  filters: applicationFiltersSchema.prefault({}),
  pageSize: z
    .number('INVALID')
    .refine((n) => (pageSizes as readonly number[]).includes(n) || n === EXPORT_PAGE_SIZE, 'INVALID')
    .default(10),
  cursor: z.string().max(2000, 'INVALID').optional(),
  exportId: exportIdSchema.optional(),
});
export type ListRequest = z.input<typeof listRequestSchema>;

export const auditEntrySchema = z.object({
  at: z.string(),
  /** The email at the time; the stable subject when the token carried none (an access token). */
  by: z.string(),
  action: z.enum(['status', 'erase', 'export']),
  from: z.string().optional(),
  to: z.string().optional(),
  note: z.string().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** An application as staff see it: the spec's fields, without internal keys. */
export const applicationRowSchema = z.object({
  id: z.string(),
  phone_number: z.string(),
  alternate_phone_number: z.string().optional(),
  name: z.string(),
  email: z.string().optional(),
  gender: z.string().optional(),
  date_of_birth: z.string().optional(),
  revenue_district: z.string().optional(),
  assembly_constituency: z.string().optional(),
  education: z.string().optional(),
  specialization: z.string().optional(),
  occupation: z.string().optional(),
  address: z.string().optional(),
  is_already_member: z.boolean().optional(),
  want_to_volunteer: z.boolean().optional(),
  want_to_join_and_volunteer: z.boolean().optional(),
  motivation: z.string().optional(),
  application_status: z.enum(applicationStatuses),
  submitted_at: z.string(),
  updated_at: z.string().optional(),
});
export type ApplicationRow = z.infer<typeof applicationRowSchema>;

export const listResponseSchema = z.object({
  items: z.array(applicationRowSchema),
  nextCursor: z.string().optional(),
  total: z.number(),
});
export type ListResponse = z.infer<typeof listResponseSchema>;

/** A decision notice that went to the applicant, with what its provider last reported. */
const decisionNoticeSchema = z.object({
  decision: z.enum(['approved', 'rejected']),
  channel: z.enum(otpChannels),
  sentAt: z.string(),
  status: z.enum(deliveryStatuses),
  /** The provider's code when the delivery failed (e.g. 131026, TEXT_BLOCKED). */
  errorCode: z.string().optional(),
});
export type DecisionNotice = z.infer<typeof decisionNoticeSchema>;

export const applicationDetailSchema = z.object({
  application: applicationRowSchema,
  audit: z.array(auditEntrySchema),
  /** Newest first; empty when none went (or notices are off). */
  notices: z.array(decisionNoticeSchema).default([]),
});
export type ApplicationDetail = z.infer<typeof applicationDetailSchema>;

export const statusChangeRequestSchema = z.object({
  ids: z.array(z.string().min(1).max(100)).min(1, 'REQUIRED').max(100, 'TOO_MANY'),
  status: z.enum(applicationStatuses, 'INVALID'),
  note: z.string().trim().max(500, 'TOO_LONG').refine(isPlainMultilineText, 'INVALID_CHARACTERS').optional(),
});
export type StatusChangeRequest = z.infer<typeof statusChangeRequestSchema>;

export const statusChangeResponseSchema = z.object({
  changed: z.array(z.string()),
  /** Already had the requested status: nothing written, no audit entry. */
  unchanged: z.array(z.string()).default([]),
  notFound: z.array(z.string()),
});
export type StatusChangeResponse = z.infer<typeof statusChangeResponseSchema>;

/** An export of the dashboard's list (`filters`) or of the Reports page's rows (`report`). */
export const exportStartRequestSchema = z.union([
  z.object({ filters: applicationFiltersSchema }),
  z.object({ report: reportFiltersSchema }),
]);
export type ExportStartRequest = z.input<typeof exportStartRequestSchema>;
export const exportStartResponseSchema = z.object({ exportId: z.string(), total: z.number() });
/**
 * The browser's count is not asked for: the server counted the rows it served for the
 * export. A `rows` sent by an older page is accepted and ignored.
 */
export const exportCompleteRequestSchema = z.object({ rows: z.number().int().min(0).optional() });
export const exportCompleteResponseSchema = z.object({ exportId: z.string(), rows: z.number() });
