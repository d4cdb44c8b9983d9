import * as z from 'zod';
import { tables, type TableKey } from '../../contracts/table-definitions';

// Environment shared by every function, parsed once at cold start. The CDK stack and
// the local stack set the same variables; a missing one fails the cold start loudly
// instead of failing a visitor's request later.
export const baseEnvSchema = z.object({
  STAGE: z.string().min(1),
  /** 'local' only under `npm start` and tests; bundles for AWS replace it at build time. */
  APP_MODE: z.enum(['aws', 'local']).default('aws'),
  /** DynamoDB Local's address; only in local mode. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('ap-south-1'),
});
export type BaseEnv = z.infer<typeof baseEnvSchema>;

export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const names = result.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`Invalid function configuration: ${names}`);
  }
  return result.data;
}

/** Name of a table from its environment variable; throws at cold start when unset. */
export function tableName(key: TableKey, env: NodeJS.ProcessEnv = process.env): string {
  const name = env[tables[key].envVar];
  if (!name) throw new Error(`Invalid function configuration: ${tables[key].envVar}`);
  return name;
}

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A DLT template as registered: its id and its text, `{#var#}` where the variable goes. */
const smsTemplateSchema = z.object({ templateId: z.string().min(1), text: z.string().min(1) });
export type SmsTemplate = z.infer<typeof smsTemplateSchema>;

/** English always; Tamil (Unicode) only where a Tamil template is registered. */
const smsTemplatePairSchema = z.object({ en: smsTemplateSchema, ta: smsTemplateSchema.optional() });

/** Every SMS the product sends: the OTP and, for decision notices, one per decision. */
export const smsTemplatesSchema = z.object({
  otp: smsTemplatePairSchema,
  approved: smsTemplatePairSchema.optional(),
  rejected: smsTemplatePairSchema.optional(),
});
export type SmsTemplates = z.infer<typeof smsTemplatesSchema>;

/** WhatsApp utility templates of the decision notices, by decision; language codes by page language. */
export const whatsappDecisionTemplatesSchema = z.object({
  approved: z.object({
    name: z.string().min(1),
    languages: z.object({ en: z.string().min(2), ta: z.string().min(2) }),
  }),
  rejected: z.object({
    name: z.string().min(1),
    languages: z.object({ en: z.string().min(2), ta: z.string().min(2) }),
  }),
});
export type WhatsappDecisionTemplates = z.infer<typeof whatsappDecisionTemplatesSchema>;

const whatsappTemplateSchema = z.object({ name: z.string().min(1), language: z.string().min(2) });
/** The welcome template by page language: a name and WhatsApp language code for each. */
const whatsappWelcomeTemplatesSchema = z.object({ en: whatsappTemplateSchema, ta: whatsappTemplateSchema });
export type WhatsappWelcomeTemplates = z.infer<typeof whatsappWelcomeTemplatesSchema>;
const defaultWelcomeTemplates: WhatsappWelcomeTemplates = {
  en: { name: 'welcome_message', language: 'en_US' },
  ta: { name: 'welcome_message', language: 'ta' },
};

const jsonOf = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

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
    OTP_CHANNELS: z.enum(otpChannelModes).default('whatsapp'),
    /** A WhatsApp code not reported delivered after this long: the page offers SMS. */
    OTP_SMS_OFFER_AFTER_SECONDS: int(30),
    /** Unique WhatsApp recipients allowed in 24 hours by the account's messaging tier; 0: unlimited. */
    WHATSAPP_TIER_UNIQUE_PER_24H: z.coerce.number().int().min(0).default(250),
    /** WhatsApp's messages per second per number (Cloud API default 80). */
    WHATSAPP_MESSAGES_PER_SECOND: int(80),
    /** SMS sends per second the account allows (End User Messaging SMS's quota for the country). */
    SMS_MESSAGES_PER_SECOND: int(20),
    /** The registered sender id (DLT header) or its ARN: SendTextMessage's OriginationIdentity. */
    SMS_ORIGINATION_IDENTITY: z.string().default(''),
    /** The stage's configuration set, whose event destination reports deliveries. */
    SMS_CONFIGURATION_SET: z.string().default(''),
    /** The DLT principal entity id (DestinationCountryParameters IN_ENTITY_ID). */
    SMS_ENTITY_ID: z.string().default(''),
    /** JSON of smsTemplatesSchema; empty: SMS is not configured. */
    SMS_TEMPLATES: z.union([z.literal(''), jsonOf(smsTemplatesSchema)]).default(''),
    /** Local mode only: the SMS sandbox's address (the SDK's endpoint). */
    SMS_ENDPOINT: z.url().optional(),
    SMS_TIMEOUT_MS: int(8000),
    /** Decision notices (approve, reject) to the applicant; off: nothing is queued. */
    DECISION_NOTICES_ENABLED: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** A decision is notified only once it has stood this long (a status set back and forth sends nothing). */
    DECISION_QUIET_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
    /** JSON of whatsappDecisionTemplatesSchema; empty: decisions go by SMS only. */
    WHATSAPP_DECISION_TEMPLATES: z.union([z.literal(''), jsonOf(whatsappDecisionTemplatesSchema)]).default(''),
  };
}

/**
 * The public flow's settings. Every limit is configuration, set per stage by the CDK
 * stack (lib/stages.ts); the defaults are PRODUCT.md's.
 */
export const publicFlowEnvSchema = baseEnvSchema.extend({
  WHATSAPP_API_BASE_URL: z.url().default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z.string().default('v19.0'),
  WHATSAPP_TIMEOUT_MS: int(8000),
  WHATSAPP_AUTH_TEMPLATE: z.string().default('auth2'),
  WHATSAPP_AUTH_LANGUAGE: z.string().default('en'),
  /** JSON of whatsappWelcomeTemplatesSchema. */
  WHATSAPP_WELCOME_TEMPLATES: jsonOf(whatsappWelcomeTemplatesSchema).default(defaultWelcomeTemplates),
  WHATSAPP_WELCOME_VIDEO_URL: z.string().default(''),
  CAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  CAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /** Hostnames the captcha token must have been solved on (comma-separated); empty: any. */
  CAPTCHA_HOSTNAMES: z.string().default(''),
  OTP_TTL_SECONDS: int(300),
  OTP_MAX_ATTEMPTS: int(5),
  OTP_RESEND_SECONDS: int(60),
  OTP_MAX_PER_HOUR: int(5),
  OTP_MAX_PER_DAY: int(10),
  OTP_MAX_PER_IP_PER_HOUR: int(2000),
  OTP_VERIFY_MAX_PER_HOUR: int(30),
  OTP_VERIFY_MAX_PER_IP_PER_HOUR: int(4000),
  VERIFICATION_TTL_SECONDS: int(1800),
  /** The code request's deadline from its start: the API functions' 10 s less the answer's margin. */
  REQUEST_DEADLINE_MS: int(8500),
  OUTBOUND_QUEUE_URL: z.string().default(''),
  WEBHOOK_TIMEOUT_MS: int(8000),
  ...messagingEnvShape(),
});
export type PublicFlowEnv = z.infer<typeof publicFlowEnvSchema>;
