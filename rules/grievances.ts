import * as v from 'valibot';
import { CODE_ALPHABET } from './attribution';
import { istDay } from './ist';
import { mobileProblem } from './phone';
import { requestObject } from './schema';
import { isPlainMultilineText } from './text';

// Grievances (issue 21, DPDP Act 2023 s. 13 and the Rules of 2025): an applicant's
// complaint to the wing, answered within 90 days. Opened on the public page after a code
// (then it names the number's application, if any) or, without one, with a contact number
// behind the captcha; staff answer it (the answer goes to that number by message) and
// close it. One module for the SPA and the server: the requests, the answers, the
// reference an applicant quotes, the due date.

/** The text's limit: as the form's motivation (rules/application.ts), with its character rules. */
export const GRIEVANCE_TEXT_MAX = 1000;
/**
 * The answer's: it travels whole as one WhatsApp template parameter, whose message Meta
 * keeps to 1,024 characters with the template's own words.
 */
export const GRIEVANCE_ANSWER_MAX = 700;
/** An answer is due this many days after the grievance was opened. */
export const GRIEVANCE_DUE_DAYS = 90;
/** The alarm fires for an open grievance this many days before its due date, or past it. */
export const GRIEVANCE_DUE_SOON_DAYS = 7;
/**
 * A ticket's id: characters of the codes' alphabet (about 79 bits). It is also a DLT
 * variable in the answer's SMS link, which holds at most 30 characters.
 */
export const GRIEVANCE_ID_LENGTH = 16;

export const grievanceStatuses = ['open', 'answered', 'closed'] as const;
export type GrievanceStatus = (typeof grievanceStatuses)[number];

const DAY_MS = 86_400_000;

const idPattern = new RegExp(`^[${CODE_ALPHABET}]{${GRIEVANCE_ID_LENGTH}}$`);
export const isGrievanceId = (value: unknown): value is string => typeof value === 'string' && idPattern.test(value);

/** What the applicant quotes: the id's first eight characters in capitals, `K7QM-2XRT`. */
export function grievanceReference(id: string): string {
  return `${id.slice(0, 4)}-${id.slice(4, 8)}`.toUpperCase();
}

/** Opened at `openedAt` (ISO): due 90 days later, to the millisecond (ISO). */
export function grievanceDueAt(openedAt: string): string {
  return new Date(Date.parse(openedAt) + GRIEVANCE_DUE_DAYS * DAY_MS).toISOString();
}

/**
 * Whole IST days from `now`'s day to the due date's day: 0 on the due day, negative once
 * it has passed (overdue).
 */
export function grievanceDaysLeft(dueAt: string, now: Date): number {
  const due = Date.parse(`${istDay(new Date(dueAt))}T00:00:00Z`);
  const today = Date.parse(`${istDay(now)}T00:00:00Z`);
  return Math.round((due - today) / DAY_MS);
}

const textOf = (max: number) =>
  v.pipe(
    v.string('REQUIRED'),
    v.trim(),
    v.minLength(1, 'REQUIRED'),
    v.maxLength(max, 'TOO_LONG'),
    v.check(isPlainMultilineText, 'INVALID_CHARACTERS'),
  );

export const grievanceTextSchema = textOf(GRIEVANCE_TEXT_MAX);
const languageSchema = v.picklist(['en', 'ta'], 'REQUIRED');

/** POST /api/me/grievances: after the code, by the number's verification (read, not spent). */
export const myGrievanceRequestSchema = requestObject({
  verificationToken: v.pipe(v.string('VERIFICATION_REQUIRED'), v.maxLength(2048, 'VERIFICATION_REQUIRED')),
  text: grievanceTextSchema,
  language: languageSchema,
});

/** POST /api/grievances: without a code, a contact number and the captcha (action `grievance`). */
export const contactGrievanceRequestSchema = requestObject({
  mobile: v.pipe(
    v.string('INVALID_PHONE'),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? mobileProblem(dataset.value) : undefined;
      if (problem) addIssue({ message: problem });
    }),
  ),
  captchaToken: v.pipe(
    v.string('CAPTCHA_FAILED'),
    v.minLength(1, 'CAPTCHA_FAILED'),
    v.maxLength(4000, 'CAPTCHA_FAILED'),
  ),
  text: grievanceTextSchema,
  language: languageSchema,
});

/** The captcha's action for the contact form (the code request's is `send_otp`). */
export const GRIEVANCE_CAPTCHA_ACTION = 'grievance';

/** What the applicant is told: the reference to quote and when the answer is due. */
export const grievanceOpenedSchema = v.object({ reference: v.string(), dueAt: v.string() });
export type GrievanceOpened = v.InferOutput<typeof grievanceOpenedSchema>;

// --- The answer's link (an SMS cannot carry the answer: a DLT variable holds 30 characters)

export const GRIEVANCE_PAGE_PATH = '/grievance';
/** As an SMS carries it: a whitelisted dynamic URL ends with `?` (docs/MESSAGING.md). */
export const SMS_GRIEVANCE_PAGE_PREFIX = `${GRIEVANCE_PAGE_PATH}?#`;
/** 16 bytes in base64url's one spelling: the last letter's 4 unused bits are zero (rules/member-card.ts). */
const macPattern = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** `<id>.<mac>`, the link's part after `#`; undefined when it is not one. */
export function parseGrievanceLink(value: unknown): { id: string; mac: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const [id, mac, ...rest] = value.split('.');
  if (rest.length > 0 || !isGrievanceId(id) || mac === undefined || !macPattern.test(mac)) return undefined;
  return { id, mac };
}

/** POST /api/grievances/answer. */
export const grievanceAnswerRequestSchema = requestObject({
  link: v.pipe(v.string('NOT_FOUND'), v.maxLength(100, 'NOT_FOUND')),
});

/** The answer page: the reference, the answer and when it was written; never the grievance's text. */
export const grievanceAnswerViewSchema = v.object({
  reference: v.string(),
  answer: v.string(),
  answeredAt: v.string(),
});
export type GrievanceAnswerView = v.InferOutput<typeof grievanceAnswerViewSchema>;

// --- The staff area

/** POST /api/admin/grievances/{id}/answer. */
export const grievanceAnswerInputSchema = requestObject({ answer: textOf(GRIEVANCE_ANSWER_MAX) });

/** A ticket as the staff screen shows it: the number masked (the answer goes by message). */
export const staffGrievanceSchema = v.object({
  id: v.string(),
  reference: v.string(),
  text: v.string(),
  language: v.picklist(['en', 'ta']),
  /** `verified`: opened after a code; `contact`: a number given on the form, never proved. */
  via: v.picklist(['verified', 'contact']),
  phone: v.string(),
  applicationId: v.optional(v.string()),
  district: v.optional(v.string()),
  status: v.picklist(grievanceStatuses),
  openedAt: v.string(),
  dueAt: v.string(),
  answer: v.optional(v.string()),
  answeredAt: v.optional(v.string()),
  /** The provider accepted the answer's message (the outbound consumer). */
  answerSentAt: v.optional(v.string()),
  closedAt: v.optional(v.string()),
});
export type StaffGrievance = v.InferOutput<typeof staffGrievanceSchema>;

/** GET /api/admin/grievances: the open and answered ones, the soonest due first. */
export const grievanceListSchema = v.object({ items: v.array(staffGrievanceSchema) });
export type GrievanceList = v.InferOutput<typeof grievanceListSchema>;

export const grievanceChangedSchema = v.object({ grievance: staffGrievanceSchema });
