import * as z from 'zod';
import { ageToday, MINIMUM_AGE } from './age';
import { educations, genders, occupations, TERMS_VERSION } from './application-values';
import { districts } from './districts';
import { parseDate } from './ist';
import { mobileProblem } from './phone';
import { isPlainMultilineText, isPlainText } from './text';

// The membership application, as the form collects it and as the server re-checks it.
// One schema for both sides; field errors carry stable codes the SPA translates
// (`fieldErrors.<CODE>`).

export {
  applicationStatuses,
  type ApplicationStatus,
  genders,
  legacyEducations,
  occupations,
  TERMS_VERSION,
} from './application-values';
export { type OtpRequestResponse, type OtpStatusResponse, type OtpVerifyResponse, type SubmitResponse } from './api';

const districtNames = new Set(districts.map((d) => d.en));
const constituenciesOf = new Map(districts.map((d) => [d.en, new Set(d.constituencies.map((c) => c.en))]));

const mobileSchema = z.string().superRefine((value, ctx) => {
  const problem = mobileProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const requiredText = (max: number, { multiline = false } = {}) =>
  z
    .string('REQUIRED')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'REQUIRED')
        .max(max, 'TOO_LONG')
        .refine(multiline ? isPlainMultilineText : isPlainText, 'INVALID_CHARACTERS'),
    );

/** The form's fields, without the cross-field and clock-dependent checks. */
export const applicationFieldsSchema = z.object({
  alternate_phone_number: z.string('REQUIRED').regex(/^\d{10}$/, 'ALTERNATE_PHONE_DIGITS'),
  name: requiredText(100),
  email: z
    .string()
    .trim()
    .max(254, 'TOO_LONG')
    .refine((s) => s === '' || z.email().safeParse(s).success, 'INVALID_EMAIL')
    .optional()
    .transform((s) => (s ? s.toLowerCase() : undefined)),
  gender: z.enum(genders, 'REQUIRED'),
  date_of_birth: z.string('REQUIRED').refine((s) => parseDate(s) !== undefined, 'INVALID_DATE'),
  revenue_district: z.string('REQUIRED').refine((s) => districtNames.has(s), 'REQUIRED'),
  assembly_constituency: z.string('REQUIRED').min(1, 'REQUIRED'),
  education: z.enum(educations, 'REQUIRED'),
  occupation: z.enum(occupations, 'REQUIRED'),
  is_already_member: z.boolean('REQUIRED'),
  motivation: requiredText(1000, { multiline: true }),
  accept_terms: z.literal(true, 'TERMS_REQUIRED'),
});
export type ApplicationFields = z.infer<typeof applicationFieldsSchema>;
export type ApplicationFieldsInput = z.input<typeof applicationFieldsSchema>;

/**
 * The whole check, on a given day: the constituency belongs to the district, the
 * alternate number differs from the verified one, and the applicant is 18 or older
 * today in IST (by year, month and day).
 */
export function applicationSchema(options: { now: Date; verifiedMobile?: string }) {
  return applicationFieldsSchema.superRefine((value, ctx) => {
    if (!constituenciesOf.get(value.revenue_district)?.has(value.assembly_constituency)) {
      ctx.addIssue({ code: 'custom', path: ['assembly_constituency'], message: 'REQUIRED' });
    }
    if (options.verifiedMobile && value.alternate_phone_number === options.verifiedMobile) {
      ctx.addIssue({ code: 'custom', path: ['alternate_phone_number'], message: 'ALTERNATE_PHONE_SAME' });
    }
    const birth = parseDate(value.date_of_birth);
    if (birth) {
      const age = ageToday(birth, options.now);
      if (age < MINIMUM_AGE) ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'UNDER_AGE' });
      else if (age > 120) ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'INVALID_DATE' });
    }
  });
}

/** The body of POST /api/applications. */
export const submitRequestSchema = z.object({
  verificationToken: z.string('REQUIRED').min(1, 'REQUIRED').max(2000, 'TOO_LONG'),
  language: z.enum(['en', 'ta'], 'REQUIRED'),
  termsVersion: z.literal(TERMS_VERSION, 'TERMS_REQUIRED'),
  application: z.unknown(),
});

const deliveryHandleSchema = z
  .string('DELIVERY_HANDLE_INVALID')
  .min(1, 'DELIVERY_HANDLE_INVALID')
  .max(400, 'DELIVERY_HANDLE_INVALID');

export const otpRequestSchema = z.object({
  mobile: mobileSchema,
  captchaToken: z.string('CAPTCHA_FAILED').min(1, 'CAPTCHA_FAILED').max(4000, 'CAPTCHA_FAILED'),
  /** The page's language: an SMS goes in Tamil where a Tamil template is registered. */
  language: z.enum(['en', 'ta'], 'INVALID_LANGUAGE').optional(),
  /** "Didn't get it? Send by SMS": the handle of the WhatsApp send it replaces. */
  switchToSms: deliveryHandleSchema.optional(),
});
export type OtpRequest = z.infer<typeof otpRequestSchema>;

export const otpStatusRequestSchema = z.object({
  mobile: mobileSchema,
  handle: deliveryHandleSchema,
});
export type OtpStatusRequest = z.infer<typeof otpStatusRequestSchema>;

export const otpVerifyRequestSchema = z.object({
  mobile: mobileSchema,
  code: z.string('INVALID_CODE').regex(/^\d{6}$/, 'INVALID_CODE'),
  /** The handle of the send this code came from: only its holder hears how many guesses are left. */
  handle: deliveryHandleSchema.optional(),
});
export type OtpVerifyRequest = z.infer<typeof otpVerifyRequestSchema>;
