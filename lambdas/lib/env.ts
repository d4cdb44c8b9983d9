import * as v from 'valibot';
import { tables, type TableKey } from '../../contracts/table-definitions';
import { coercedNumber, issuePath, union, url } from '../../rules/schema';

// Environment shared by every function, parsed once at cold start. The CDK stack and
// the local stack set the same variables; a missing one fails the cold start loudly
// instead of failing a visitor's request later.
export const baseEnvSchema = v.object({
  STAGE: v.pipe(v.string(), v.minLength(1)),
  /** 'local' only under `npm start` and tests; bundles for AWS replace it at build time. */
  APP_MODE: v.optional(v.picklist(['aws', 'local']), 'aws'),
  /** DynamoDB Local's address; only in local mode. */
  DYNAMODB_ENDPOINT: v.optional(url()),
  AWS_REGION: v.optional(v.string(), 'ap-south-1'),
});
export type BaseEnv = v.InferOutput<typeof baseEnvSchema>;

export function parseEnv<T extends v.GenericSchema>(schema: T, env: NodeJS.ProcessEnv = process.env): v.InferOutput<T> {
  const result = v.safeParse(schema, env);
  if (!result.success) {
    const names = result.issues.map(issuePath).join(', ');
    throw new Error(`Invalid function configuration: ${names}`);
  }
  return result.output;
}

/** Name of a table from its environment variable; throws at cold start when unset. */
export function tableName(key: TableKey, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[tables[key].envVar];
  if (!name) throw new Error(`Invalid function configuration: ${tables[key].envVar}`);
  return name;
}

/** A whole number above zero from a variable (a string), `fallback` when unset. */
export const envInt = (fallback: number, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) =>
  v.optional(v.pipe(coercedNumber(), v.safeInteger(), v.minValue(min), v.maxValue(max)), fallback);
const int = (fallback: number) => envInt(fallback);

/** A DLT template as registered: its id and its text, `{#var#}` where the variable goes. */
const smsTemplateSchema = v.object({
  templateId: v.pipe(v.string(), v.minLength(1)),
  text: v.pipe(v.string(), v.minLength(1)),
});
export type SmsTemplate = v.InferOutput<typeof smsTemplateSchema>;

/** English always; Tamil (Unicode) only where a Tamil template is registered. */
const smsTemplatePairSchema = v.object({ en: smsTemplateSchema, ta: v.optional(smsTemplateSchema) });

/**
 * Every SMS the product sends: the OTP and, for decision notices, one per decision; the
 * confirmation of an applicant's own withdrawal (issue 21), no variable.
 */
export const smsTemplatesSchema = v.object({
  otp: smsTemplatePairSchema,
  approved: v.optional(smsTemplatePairSchema),
  rejected: v.optional(smsTemplatePairSchema),
  withdrawn: v.optional(smsTemplatePairSchema),
  /**
   * The answer to a grievance (issue 21): its reference, then the answer page's link (id
   * and MAC): a DLT variable holds 30 characters, too few for the answer itself.
   */
  grievanceAnswer: v.optional(smsTemplatePairSchema),
});
export type SmsTemplates = v.InferOutput<typeof smsTemplatesSchema>;

/** A WhatsApp utility template: one name, its WhatsApp language code for each page language. */
export const whatsappNoticeTemplateSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  languages: v.object({ en: v.pipe(v.string(), v.minLength(2)), ta: v.pipe(v.string(), v.minLength(2)) }),
});
export type WhatsappNoticeTemplate = v.InferOutput<typeof whatsappNoticeTemplateSchema>;

/** WhatsApp utility templates of the decision notices, by decision; language codes by page language. */
export const whatsappDecisionTemplatesSchema = v.object({
  approved: whatsappNoticeTemplateSchema,
  rejected: whatsappNoticeTemplateSchema,
});
export type WhatsappDecisionTemplates = v.InferOutput<typeof whatsappDecisionTemplatesSchema>;

/** The withdrawal confirmation's WhatsApp template unless the stage names another (lib/stages.ts). */
export const defaultWithdrawalTemplate: WhatsappNoticeTemplate = {
  name: 'withdrawal_confirmed',
  languages: { en: 'en', ta: 'ta' },
};

/**
 * The grievance answer's WhatsApp template unless the stage names another (lib/stages.ts):
 * two body parameters, the reference and the answer.
 */
export const defaultGrievanceAnswerTemplate: WhatsappNoticeTemplate = {
  name: 'grievance_answer',
  languages: { en: 'en', ta: 'ta' },
};

const whatsappTemplateSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  language: v.pipe(v.string(), v.minLength(2)),
});
/** The welcome template by page language: a name and WhatsApp language code for each. */
const whatsappWelcomeTemplatesSchema = v.object({ en: whatsappTemplateSchema, ta: whatsappTemplateSchema });
export type WhatsappWelcomeTemplates = v.InferOutput<typeof whatsappWelcomeTemplatesSchema>;
const defaultWelcomeTemplates: WhatsappWelcomeTemplates = {
  en: { name: 'welcome_message', language: 'en_US' },
  ta: { name: 'welcome_message', language: 'ta' },
};

const jsonOf = <T extends v.GenericSchema>(schema: T) =>
  v.pipe(
    v.string(),
    v.rawTransform<string, unknown>(({ dataset, addIssue, NEVER }) => {
      try {
        return JSON.parse(dataset.value) as unknown;
      } catch {
        addIssue({ message: 'not JSON' });
        return NEVER;
      }
    }),
    schema,
  );

/** JSON of `schema`, or empty (not configured). */
const jsonOrEmpty = <T extends v.GenericSchema>(schema: T) => v.optional(union([v.literal(''), jsonOf(schema)]), '');

export const otpChannelModes = ['whatsapp', 'sms', 'whatsapp-then-sms'] as const;
export type OtpChannelMode = (typeof otpChannelModes)[number];

/**
 * Messaging settings (lib/stages.ts `messaging`): which channels carry the code, SMS's
 * DLT parameters and templates (India: TRAI's DLT rules), the WhatsApp messaging tier,
 * channel rates and the decision notices. None is a secret.
 */
function messagingEnvShape() {
  return {
    /** `whatsapp`, `sms`, or WhatsApp first with SMS as the fallback. */
    OTP_CHANNELS: v.optional(v.picklist(otpChannelModes), 'whatsapp'),
    /** A WhatsApp code not reported delivered after this long: the page offers SMS. */
    OTP_SMS_OFFER_AFTER_SECONDS: int(30),
    /** Unique WhatsApp recipients allowed in 24 hours by the account's messaging tier; 0: unlimited. */
    WHATSAPP_TIER_UNIQUE_PER_24H: envInt(250, { min: 0 }),
    /** WhatsApp's messages per second per number (Cloud API default 80). */
    WHATSAPP_MESSAGES_PER_SECOND: int(80),
    /** SMS sends per second the account allows (End User Messaging SMS's quota for the country). */
    SMS_MESSAGES_PER_SECOND: int(20),
    /** The registered sender id (DLT header) or its ARN: SendTextMessage's OriginationIdentity. */
    SMS_ORIGINATION_IDENTITY: v.optional(v.string(), ''),
    /** The stage's configuration set, whose event destination reports deliveries. */
    SMS_CONFIGURATION_SET: v.optional(v.string(), ''),
    /** The DLT principal entity id (DestinationCountryParameters IN_ENTITY_ID). */
    SMS_ENTITY_ID: v.optional(v.string(), ''),
    /** JSON of smsTemplatesSchema; empty: SMS is not configured. */
    SMS_TEMPLATES: jsonOrEmpty(smsTemplatesSchema),
    /** Local mode only: the SMS sandbox's address (the SDK's endpoint). */
    SMS_ENDPOINT: v.optional(url()),
    SMS_TIMEOUT_MS: int(8000),
    /** Decision notices (approve, reject) to the applicant; off: nothing is queued. */
    DECISION_NOTICES_ENABLED: v.pipe(
      v.optional(v.picklist(['true', 'false']), 'false'),
      v.transform((value) => value === 'true'),
    ),
    /** A decision is notified only once it has stood this long (a status set back and forth sends nothing). */
    DECISION_QUIET_SECONDS: envInt(300, { min: 0, max: 86_400 }),
    /** JSON of whatsappDecisionTemplatesSchema; empty: decisions go by SMS only. */
    WHATSAPP_DECISION_TEMPLATES: jsonOrEmpty(whatsappDecisionTemplatesSchema),
    /** JSON of whatsappNoticeTemplateSchema: a grievance's answer (issue 21), the reference and the answer. */
    WHATSAPP_GRIEVANCE_TEMPLATE: v.optional(
      jsonOf(whatsappNoticeTemplateSchema),
      JSON.stringify(defaultGrievanceAnswerTemplate),
    ),
    /**
     * The confirmation message after an applicant's own withdrawal (issue 21); off: the
     * withdrawal keeps no number for it and queues nothing.
     */
    WITHDRAWAL_CONFIRMATIONS_ENABLED: v.pipe(
      v.optional(v.picklist(['true', 'false']), 'false'),
      v.transform((value) => value === 'true'),
    ),
    /** JSON of whatsappNoticeTemplateSchema: the withdrawal confirmation's WhatsApp template. */
    WHATSAPP_WITHDRAWAL_TEMPLATE: v.optional(
      jsonOf(whatsappNoticeTemplateSchema),
      JSON.stringify(defaultWithdrawalTemplate),
    ),
  };
}

/**
 * The public flow's settings. Every limit is configuration, set per stage by the CDK
 * stack (lib/stages.ts); the defaults are PRODUCT.md's.
 */
export const publicFlowEnvSchema = v.object({
  ...baseEnvSchema.entries,
  WHATSAPP_API_BASE_URL: v.optional(url(), 'https://graph.facebook.com'),
  WHATSAPP_API_VERSION: v.optional(v.string(), 'v19.0'),
  WHATSAPP_TIMEOUT_MS: int(8000),
  WHATSAPP_AUTH_TEMPLATE: v.optional(v.string(), 'auth2'),
  WHATSAPP_AUTH_LANGUAGE: v.optional(v.string(), 'en'),
  /** JSON of whatsappWelcomeTemplatesSchema. */
  // The default as the variable would carry it (valibot checks a default as it checks a value).
  WHATSAPP_WELCOME_TEMPLATES: v.optional(
    jsonOf(whatsappWelcomeTemplatesSchema),
    JSON.stringify(defaultWelcomeTemplates),
  ),
  WHATSAPP_WELCOME_VIDEO_URL: v.optional(v.string(), ''),
  CAPTCHA_VERIFY_URL: v.optional(url(), 'https://www.google.com/recaptcha/api/siteverify'),
  CAPTCHA_MIN_SCORE: v.optional(v.pipe(coercedNumber(), v.minValue(0), v.maxValue(1)), 0.5),
  /** Hostnames the captcha token must have been solved on (comma-separated); empty: any. */
  CAPTCHA_HOSTNAMES: v.optional(v.string(), ''),
  OTP_TTL_SECONDS: int(300),
  OTP_MAX_ATTEMPTS: int(5),
  OTP_RESEND_SECONDS: int(60),
  OTP_MAX_PER_HOUR: int(5),
  OTP_MAX_PER_DAY: int(10),
  OTP_MAX_PER_IP_PER_HOUR: int(2000),
  OTP_VERIFY_MAX_PER_HOUR: int(30),
  OTP_VERIFY_MAX_PER_IP_PER_HOUR: int(4000),
  VERIFICATION_TTL_SECONDS: int(1800),
  /** Grievances a number may open in any 24 hours, after a code and with the contact form each (issue 21). */
  GRIEVANCE_MAX_PER_DAY: int(3),
  /** Grievances opened without a code from one viewer address in an hour. */
  GRIEVANCE_MAX_PER_IP_PER_HOUR: int(60),
  /** The code request's deadline from its start: the API functions' 10 s less the answer's margin. */
  REQUEST_DEADLINE_MS: int(8500),
  OUTBOUND_QUEUE_URL: v.optional(v.string(), ''),
  WEBHOOK_TIMEOUT_MS: int(8000),
  ...messagingEnvShape(),
});
export type PublicFlowEnv = v.InferOutput<typeof publicFlowEnvSchema>;
