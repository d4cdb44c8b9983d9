import * as v from 'valibot';
import { ageToday, MINIMUM_AGE } from './age';
import { educations, genders, occupations, TERMS_VERSION } from './application-values';
import { districts } from './districts';
import { parseDate } from './ist';
import { mobileProblem } from './phone';
import { crossCheck, isEmail, requestObject } from './schema';
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
/** Whether the constituency is one of the district's (both by their English names, as stored). */
export const constituencyIsIn = (district: string, constituency: string): boolean =>
  constituenciesOf.get(district)?.has(constituency) ?? false;

const mobileSchema = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? mobileProblem(dataset.value) : undefined;
    if (problem) addIssue({ message: problem });
  }),
);

const requiredText = (max: number, { multiline = false } = {}) =>
  v.pipe(
    v.string('REQUIRED'),
    v.trim(),
    v.minLength(1, 'REQUIRED'),
    v.maxLength(max, 'TOO_LONG'),
    v.check(multiline ? isPlainMultilineText : isPlainText, 'INVALID_CHARACTERS'),
  );

/** Each of the form's fields' own check (the correction of issue 21 checks a few of them alone). */
export const applicationFieldEntries = {
  alternate_phone_number: v.pipe(v.string('REQUIRED'), v.regex(/^\d{10}$/, 'ALTERNATE_PHONE_DIGITS')),
  name: requiredText(100),
  email: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(254, 'TOO_LONG'),
        v.check((s) => s === '' || isEmail(s), 'INVALID_EMAIL'),
      ),
    ),
    v.transform((s) => (s ? s.toLowerCase() : undefined)),
  ),
  gender: v.picklist(genders, 'REQUIRED'),
  date_of_birth: v.pipe(
    v.string('REQUIRED'),
    v.check((s) => parseDate(s) !== undefined, 'INVALID_DATE'),
  ),
  revenue_district: v.pipe(
    v.string('REQUIRED'),
    v.check((s) => districtNames.has(s), 'REQUIRED'),
  ),
  assembly_constituency: v.pipe(v.string('REQUIRED'), v.minLength(1, 'REQUIRED')),
  education: v.picklist(educations, 'REQUIRED'),
  occupation: v.picklist(occupations, 'REQUIRED'),
  is_already_member: v.boolean('REQUIRED'),
  motivation: requiredText(1000, { multiline: true }),
  accept_terms: v.literal(true, 'TERMS_REQUIRED'),
};

/** The form's fields, without the cross-field and clock-dependent checks. */
export const applicationFieldsSchema = requestObject(applicationFieldEntries);
export type ApplicationFields = v.InferOutput<typeof applicationFieldsSchema>;
export type ApplicationFieldsInput = v.InferInput<typeof applicationFieldsSchema>;

/**
 * The whole check, on a given day: the constituency belongs to the district, the
 * alternate number differs from the verified one, and the applicant is 18 or older
 * today in IST (by year, month and day).
 */
export function applicationSchema(options: { now: Date; verifiedMobile?: string }) {
  return v.pipe(
    applicationFieldsSchema,
    crossCheck<ApplicationFields>((value, addIssue) => {
      if (!constituencyIsIn(value.revenue_district, value.assembly_constituency)) {
        addIssue('assembly_constituency', 'REQUIRED');
      }
      if (options.verifiedMobile && value.alternate_phone_number === options.verifiedMobile) {
        addIssue('alternate_phone_number', 'ALTERNATE_PHONE_SAME');
      }
      const birth = parseDate(value.date_of_birth);
      if (birth) {
        const age = ageToday(birth, options.now);
        if (age < MINIMUM_AGE) addIssue('date_of_birth', 'UNDER_AGE');
        else if (age > 120) addIssue('date_of_birth', 'INVALID_DATE');
      }
    }),
  );
}

/** The body of POST /api/applications. */
export const submitRequestSchema = requestObject({
  verificationToken: v.pipe(v.string('REQUIRED'), v.minLength(1, 'REQUIRED'), v.maxLength(2000, 'TOO_LONG')),
  language: v.picklist(['en', 'ta'], 'REQUIRED'),
  termsVersion: v.literal(TERMS_VERSION, 'TERMS_REQUIRED'),
  application: v.unknown(),
  /**
   * Where the applicant came from (rules/campaigns.ts, `Attribution`): never checked
   * here. The server keeps only its well-formed parts (`cleanAttribution`), never an error.
   */
  attribution: v.optional(v.unknown()),
});

const deliveryHandleSchema = v.pipe(
  v.string('DELIVERY_HANDLE_INVALID'),
  v.minLength(1, 'DELIVERY_HANDLE_INVALID'),
  v.maxLength(400, 'DELIVERY_HANDLE_INVALID'),
);

export const otpRequestSchema = requestObject({
  mobile: mobileSchema,
  captchaToken: v.pipe(
    v.string('CAPTCHA_FAILED'),
    v.minLength(1, 'CAPTCHA_FAILED'),
    v.maxLength(4000, 'CAPTCHA_FAILED'),
  ),
  /** The page's language: an SMS goes in Tamil where a Tamil template is registered. */
  language: v.optional(v.picklist(['en', 'ta'], 'INVALID_LANGUAGE')),
  /** "Didn't get it? Send by SMS": the handle of the WhatsApp send it replaces. */
  switchToSms: v.optional(deliveryHandleSchema),
});
export type OtpRequest = v.InferOutput<typeof otpRequestSchema>;

export const otpStatusRequestSchema = requestObject({
  mobile: mobileSchema,
  handle: deliveryHandleSchema,
});
export type OtpStatusRequest = v.InferOutput<typeof otpStatusRequestSchema>;

export const otpVerifyRequestSchema = requestObject({
  mobile: mobileSchema,
  code: v.pipe(v.string('INVALID_CODE'), v.regex(/^\d{6}$/, 'INVALID_CODE')),
  /** The handle of the send this code came from: only its holder hears how many guesses are left. */
  handle: v.optional(deliveryHandleSchema),
});
export type OtpVerifyRequest = v.InferOutput<typeof otpVerifyRequestSchema>;
