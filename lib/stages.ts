import * as v from 'valibot';
import { z } from 'zod';
import {
  defaultGrievanceAnswerTemplate,
  defaultWithdrawalTemplate,
  otpChannelModes,
  smsTemplatesSchema,
  whatsappDecisionTemplatesSchema,
  whatsappNoticeTemplateSchema,
} from '../lambdas/lib/env';
import { routes } from './api-routes';
import { rallyLimits, rallyModel } from './rally-model';

// One typed configuration per deployable stage. No secrets here: secret values live in
// Secrets Manager and are filled by the operator (see the Data stack). `bin/app.ts`
// picks a stage from `-c stage=<name>` and parses it with `stageConfigSchema`.

export const stageNames = ['dev', 'staging', 'prod'] as const;
const stageNameSchema = z.enum(stageNames);
export type StageName = z.infer<typeof stageNameSchema>;

/** A route's key as API Gateway names it: `POST /api/otp/request`. */
export const routeKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

const throttleSchema = z.object({
  /** Steady-state requests per second. */
  rateLimit: z.number().positive(),
  /** Requests API Gateway admits at once above the steady rate. */
  burstLimit: z.number().int().positive(),
});
type Throttle = z.infer<typeof throttleSchema>;

/** The thresholds of the stage's alarms (lib/constructs/monitoring.ts). */
const alarmThresholdsSchema = z.object({
  /** Share of API requests answered 5xx over 5 minutes. */
  apiServerErrorRate: z.number().gt(0).max(1).default(0.05),
  /** Requests (or WhatsApp sends) in 5 minutes below which rates and percentiles are not judged: too few to mean anything. */
  minRequests: z.number().int().positive().default(20),
  /** Errors of one function in 5 minutes (crashes and timeouts; answered errors are not Lambda errors). */
  lambdaErrors: z.number().int().positive().default(1),
  /** Throttled invocations of one function in 5 minutes (the account's concurrency is exhausted). */
  lambdaThrottles: z.number().int().positive().default(1),
  /** Share of OTP sends WhatsApp refused over 5 minutes: OtpSendFailed / (OtpSent + OtpSendFailed). */
  whatsappFailureRate: z.number().gt(0).max(1).default(0.2),
  /** WhatsApp sends (sent + failed) in 5 minutes below which their failure rate is not judged. */
  whatsappMinSends: z.number().int().positive().default(5),
  /** p99 latency of each public route (/api/otp/*, submit), in milliseconds, three 5-minute periods in a row. */
  publicLatencyP99Ms: z.number().int().positive().default(4000),
  /** Age of the oldest applications-stream record when its consumer read it, in seconds: reports lag this much. */
  streamIteratorAgeSeconds: z.number().int().positive().default(900),
  /**
   * Share of messages a provider accepted that it also reported delivered, per channel, over
   * 15 minutes (MessageDelivered / MessageAccepted, dimension `channel`), below which the
   * delivery-rate alarm fires.
   */
  deliveryRate: z.number().gt(0).max(1).default(0.8),
  /** Messages accepted on a channel in 15 minutes below which its delivery rate is not judged. */
  deliveryMinAccepted: z.number().int().positive().default(20),
  /** Where each alarm's description points the operator; `#<anchor>` is appended. */
  runbookUrl: z.string().min(1).default('docs/RUNBOOK.md'),
});

/** AWS WAF in front of CloudFront (lib/constructs/edge-firewall.ts). */
const wafSchema = z.object({
  /**
   * Costs about 5 USD a month per web ACL, 1 USD per rule and 0.60 USD per million
   * requests: on where abuse would cost more (prod), off for throw-away stages.
   */
  enabled: z.boolean().default(false),
  /**
   * Requests to POST /api/otp/request that one address may make per window before the
   * edge answers 429 (WAF's minimum is 10). Set above the app's own per-address limit
   * (limits.otpMaxPerIpPerHour) pro rata: carriers put many phones behind one address, and
   * this rule is the flood fuse in front of reCAPTCHA and WhatsApp, not the fine limit.
   */
  otpRequestLimit: z.number().int().min(10).max(2_000_000_000).default(300),
  /** The rate rule's window, in seconds (WAF allows 60, 120, 300 or 600). */
  otpRequestWindowSeconds: z.union([z.literal(60), z.literal(120), z.literal(300), z.literal(600)]).default(300),
});

/** WhatsApp's messaging tiers: unique recipients outside a conversation in 24 hours; 0 is unlimited. */
export const whatsappTiers = [250, 2000, 10_000, 100_000, 0] as const;

/** SMS through AWS End User Messaging SMS, under India's DLT rules (docs/MESSAGING.md). */
/**
 * A schema of the functions' (valibot, lambdas/lib/env.ts) inside this file's zod: the
 * same checks, failures reported at their paths.
 */
function checkedBy<T extends v.GenericSchema>(schema: T) {
  return z
    .custom<v.InferInput<T>>(() => true)
    .transform((value, ctx): v.InferOutput<T> => {
      const result = v.safeParse(schema, value);
      if (result.success) return result.output;
      for (const issue of result.issues) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: issue.path?.map((item) => String(item.key)) ?? [],
        });
      }
      return z.NEVER;
    })
    .meta({ valibot: schema }); // for the docs test, which walks every setting's path
}

const smsSchema = z.object({
  /**
   * The sender id (DLT header, 6 letters) registered with DLT and in End User Messaging SMS:
   * SendTextMessage's origination identity, and the resource the functions may send from.
   */
  originationIdentity: z.string().regex(/^[A-Za-z0-9]{3,11}$/),
  /** Country of the sender id registration (its ARN ends in /<SenderId>/<country>). */
  isoCountryCode: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .default('IN'),
  /** The DLT principal entity id (19 digits once registered): IN_ENTITY_ID. */
  entityId: z.string().min(1),
  /** Message parts a second the sender id may send (End User Messaging SMS's limit; raise it by a quota request). */
  messagesPerSecond: z.number().int().positive(),
  /** Each template's DLT id and its text exactly as registered, `{#var#}` for the code. */
  templates: checkedBy(smsTemplatesSchema),
});

/** How codes and notices reach a phone (docs/MESSAGING.md). None of it is a secret. */
const messagingSchema = z.object({
  otpChannels: z.enum(otpChannelModes).default('whatsapp'),
  /** A WhatsApp code not reported delivered after this long: the page offers SMS. */
  smsOfferAfterSeconds: z.number().int().min(5).max(300).default(30),
  whatsappTier: z
    .object({
      /** The business portfolio's current tier (WhatsApp Manager); 0: unlimited. */
      uniqueRecipientsPer24h: z.literal(whatsappTiers).default(250),
      /** The tier alarm fires at this share of the tier. */
      alarmShare: z.number().gt(0).max(1).default(0.8),
    })
    .prefault({}),
  /** WhatsApp's messages a second per business number (Cloud API default 80). */
  whatsappMessagesPerSecond: z.number().int().positive().max(1000).default(80),
  /** Required for `sms` and `whatsapp-then-sms`. */
  sms: smsSchema.optional(),
  decisionNotices: z
    .object({
      enabled: z.boolean().default(false),
      /** A decision is notified once it has stood this long: SQS delays a message at most 15 minutes. */
      quietPeriodSeconds: z.number().int().min(0).max(900).default(300),
      /** WhatsApp utility templates per decision; without them decisions go by SMS. */
      whatsappTemplates: checkedBy(whatsappDecisionTemplatesSchema).optional(),
    })
    .prefault({}),
  /**
   * The confirmation message after an applicant's own withdrawal (issue 21,
   * docs/MESSAGING.md): by the stage's channels, as decision notices go; its SMS is
   * `sms.templates.withdrawn`.
   */
  withdrawalConfirmations: z
    .object({
      /** Off: the withdrawal keeps no number for it and queues nothing; the page promises no message. */
      enabled: z.boolean().default(false),
      /** The WhatsApp utility template, one name approved in both languages (no variable). */
      whatsappTemplate: checkedBy(whatsappNoticeTemplateSchema).prefault(defaultWithdrawalTemplate),
    })
    .prefault({}),
  /**
   * A grievance's answer (issue 21, docs/MESSAGING.md): always on (an answer is owed), by
   * the stage's channels as decision notices go; its SMS is `sms.templates.grievanceAnswer`.
   */
  grievanceAnswers: z
    .object({
      /** The WhatsApp utility template, approved in both languages: the reference and the answer as its parameters. */
      whatsappTemplate: checkedBy(whatsappNoticeTemplateSchema).prefault(defaultGrievanceAnswerTemplate),
    })
    .prefault({}),
});

/**
 * Who answers for the wing's data (issue 21; DPDP Act 2023 s.5 and s.8(9)): the notice on the
 * public page names them as the one to write to for access, correction, erasure and
 * grievances. Shown as written in both languages, so a person's name or an office that reads
 * in either ("R. Kumar, Data Protection Officer").
 */
export const dataContactSchema = z.object({
  name: z.string().trim().min(3).max(120),
  email: z.email(),
  /** Optional: a number the office answers, written as it should be dialled (`+91 44 2345 6789`). */
  phone: z
    .string()
    .regex(/^\+?[0-9][0-9 -]{6,18}[0-9]$/, 'a phone number: digits, spaces or dashes, an optional leading +')
    .optional(),
});

export const stageConfigSchema = z
  .object({
    stage: stageNameSchema,
    /** Region every stack of the stage deploys to (Mumbai serves Tamil Nadu best). */
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/),
    /** Data outlives its stack: RETAIN + deletion protection. Off only for throw-away stages. */
    retainData: z.boolean(),
    /**
     * How long what the product no longer needs is kept (issue 21, DPDP Act 2023 s.8(7)):
     * a rejected application, counted from its rejection, is erased by the daily
     * retention job after this many days. OTPs, rate limits and messages expire on their TTL.
     */
    retention: z
      .object({
        rejectedApplicationDays: z.number().int().min(1).max(3650).default(365),
        /** A closed grievance (issue 21), counted from its closing: long enough for a complaint to the Board. */
        closedGrievanceDays: z.number().int().min(1).max(3650).default(365),
      })
      .prefault({}),
    /** Named in the notice shown before the number is sent (web/src/legal/): required, a stage's notice needs one. */
    dataContact: dataContactSchema,
    /** CloudWatch Logs retention of every function and access log, in days. */
    logRetentionDays: z.union([
      z.literal(7),
      z.literal(14),
      z.literal(30),
      z.literal(90),
      z.literal(180),
      z.literal(365),
    ]),
    api: z.object({
      /** Steady-state requests per second over the whole stage. */
      throttleRateLimit: z.number().int().positive(),
      throttleBurstLimit: z.number().int().positive(),
      /**
       * Tighter limits for single routes, by route key (`POST /api/otp/request`, see
       * lib/api-routes.ts): the routes that cost money (a WhatsApp message) or write. API
       * Gateway answers 429 past them before any function runs. Each key must be a route and
       * each limit at most the stage-wide one.
       */
      routeThrottles: z.record(z.string(), throttleSchema).default({}),
      /**
       * Reserved concurrency by handler module (lib/api-routes.ts): guaranteed to the
       * function and its ceiling. The account keeps at least 100 unreserved, so only stages in
       * an account with a raised quota set it (docs/CAPACITY.md).
       */
      reservedConcurrency: z.record(z.string(), z.number().int().positive()).default({}),
    }),
    captcha: z.object({
      /** reCAPTCHA v3 site key: public by design (it is in every page). */
      siteKey: z.string().min(1),
      scoreThreshold: z.number().min(0).max(1).default(0.5),
    }),
    defaultLanguage: z.enum(['en', 'ta']).default('en'),
    outbound: z.object({
      /** Receives before a message lands in the dead-letter queue (the consumer knows its last try by it). */
      maxReceiveCount: z.number().int().min(1).max(1000).default(5),
      /** The consumer's first retry delay in seconds, doubled at each receive (0: the queue's visibility timeout). */
      retryBaseSeconds: z.number().int().min(0).max(43_200).default(60),
      /** Concurrent batches of the consumer (the SQS event source's maximum concurrency, 2-1000): its send rate. */
      maxConcurrency: z.number().int().min(2).max(1000).default(5),
    }),
    /** The public flow's limits (PRODUCT.md: every limit is configuration, per stage). */
    limits: z.object({
      otpTtlSeconds: z.number().int().positive().default(300),
      otpMaxAttempts: z.number().int().positive().default(5),
      otpResendSeconds: z.number().int().positive().default(60),
      otpMaxPerHour: z.number().int().positive().default(5),
      otpMaxPerDay: z.number().int().positive().default(10),
      /** Generous: carriers and campuses put thousands of phones behind one address. */
      otpMaxPerIpPerHour: z.number().int().positive().default(2000),
      /** Code checks per number in any hour: 5 codes × 5 guesses, and a little over. */
      otpVerifyMaxPerHour: z.number().int().positive().default(30),
      /** Code checks per viewer address an hour: generous, as for sends (two checks a send). */
      otpVerifyMaxPerIpPerHour: z.number().int().positive().default(4000),
      verificationTtlSeconds: z.number().int().positive().default(1800),
      /** Grievances one number may open in any 24 hours, after a code and with the contact form each (issue 21). */
      grievanceMaxPerDay: z.number().int().positive().default(3),
      /** Grievances opened without a code from one viewer address in an hour. */
      grievanceMaxPerIpPerHour: z.number().int().positive().default(60),
    }),
    messaging: messagingSchema.prefault({}),
    whatsapp: z.object({
      authTemplate: z.string().min(1).default('auth2'),
      authTemplateLanguage: z.string().min(2).default('en'),
      /** The welcome template for each page language: applicants get it in the language they applied in. */
      welcomeTemplates: z
        .object({
          en: z.object({ name: z.string().min(1), language: z.string().min(2) }),
          ta: z.object({ name: z.string().min(1), language: z.string().min(2) }),
        })
        .default({
          en: { name: 'welcome_message', language: 'en_US' },
          ta: { name: 'welcome_message', language: 'ta' },
        }),
      welcomeVideoUrl: z.url(),
      /**
       * The WhatsApp Business Account id (WhatsApp Manager → Account tools, or Business
       * settings → WhatsApp accounts): not a secret, and not needed to send. The preflight
       * reads the templates' approval through it (`npm run preflight`, docs/PREFLIGHT.md).
       */
      businessAccountId: z
        .string()
        .regex(/^\d{5,20}$/)
        .optional(),
    }),
    /** Receives every alarm of the stage (confirm the subscription e-mail after the first deploy). */
    alarmEmail: z.email().optional(),
    alarms: alarmThresholdsSchema.prefault({}),
    /** X-Ray active tracing on every function: a few cents at this traffic (sampled: 1 request a second plus 5 %). */
    tracing: z.boolean().default(true),
    waf: wafSchema.prefault({}),
    /** Optional own domain for the site; the certificate must be in us-east-1 (CloudFront). */
    customDomain: z
      .object({
        domainName: z.string().min(3),
        certificateArn: z.string().startsWith('arn:aws:acm:us-east-1:'),
      })
      .optional(),
  })
  .superRefine((config, ctx) => {
    const known = new Set(routes.map(routeKey));
    for (const [key, limit] of Object.entries(config.api.routeThrottles)) {
      const path = ['api', 'routeThrottles', key];
      if (!known.has(key)) ctx.addIssue({ code: 'custom', path, message: `${key} is no route of lib/api-routes.ts` });
      if (limit.rateLimit > config.api.throttleRateLimit || limit.burstLimit > config.api.throttleBurstLimit) {
        ctx.addIssue({ code: 'custom', path, message: 'a route limit above the stage-wide one would never apply' });
      }
    }
    const handlers = new Set(routes.map((route) => route.handler));
    for (const handler of Object.keys(config.api.reservedConcurrency)) {
      if (!handlers.has(handler)) {
        ctx.addIssue({
          code: 'custom',
          path: ['api', 'reservedConcurrency', handler],
          message: `${handler} is no handler of lib/api-routes.ts`,
        });
      }
    }
    const { messaging } = config;
    const usesSms = messaging.otpChannels !== 'whatsapp';
    if (usesSms && !messaging.sms) {
      ctx.addIssue({
        code: 'custom',
        path: ['messaging', 'sms'],
        message: `otpChannels ${messaging.otpChannels} sends SMS: the stage needs an sms block (sender id, DLT entity, templates)`,
      });
    }
    const notices = messaging.decisionNotices;
    if (notices.enabled) {
      const byWhatsapp = messaging.otpChannels !== 'sms' && notices.whatsappTemplates !== undefined;
      const bySms =
        usesSms && messaging.sms?.templates.approved !== undefined && messaging.sms.templates.rejected !== undefined;
      if (!byWhatsapp && !bySms) {
        ctx.addIssue({
          code: 'custom',
          path: ['messaging', 'decisionNotices'],
          message:
            'decision notices need WhatsApp templates (decisionNotices.whatsappTemplates) or SMS templates for approved and rejected on a channel the stage uses',
        });
      }
    }
    // A grievance's answer is always sent: an SMS-only stage needs its template.
    if (messaging.otpChannels === 'sms' && !messaging.sms?.templates.grievanceAnswer) {
      ctx.addIssue({
        code: 'custom',
        path: ['messaging', 'sms', 'templates', 'grievanceAnswer'],
        message: 'an SMS-only stage needs the SMS template of grievance answers (sms.templates.grievanceAnswer)',
      });
    }
    // The WhatsApp template has a default: only an SMS-only stage can lack a channel for it.
    if (
      messaging.withdrawalConfirmations.enabled &&
      messaging.otpChannels === 'sms' &&
      !messaging.sms?.templates.withdrawn
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['messaging', 'withdrawalConfirmations'],
        message: 'withdrawal confirmations on an SMS-only stage need the SMS template sms.templates.withdrawn',
      });
    }
  });
export type StageConfig = z.infer<typeof stageConfigSchema>;
type StageConfigInput = z.input<typeof stageConfigSchema>;

/** Placeholder until the real reCAPTCHA keys are registered for the site's domain. */
const placeholderSiteKey = 'RECAPTCHA_SITE_KEY_PLACEHOLDER';
const welcomeVideoUrl = 'https://www.youtube.com/watch?v=PLACEHOLDER';

/**
 * Placeholders until the wing's DLT registration is done (README, "SMS under DLT"): the
 * principal entity id, the sender id (header) and each template's id, with the template
 * texts as they will be registered. Replace every value with what the DLT portal shows,
 * to the character: an SMS whose text differs from its registered template is blocked
 * (TEXT_BLOCKED). One registration serves every stage.
 */
const placeholderDlt = {
  entityId: 'DLT_ENTITY_ID_PLACEHOLDER',
  senderId: 'PLACEHOLDER',
  templates: {
    otp: {
      en: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_OTP_EN',
        text: '{#var#} is your code to join the student wing. It is valid for 5 minutes. Do not share it.',
      },
      ta: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_OTP_TA',
        text: '{#var#} மாணவர் அணியில் சேர உங்கள் குறியீடு. 5 நிமிடங்கள் செல்லும். யாரிடமும் பகிர வேண்டாம்.',
      },
    },
    approved: {
      en: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_APPROVED_EN',
        // The card link (issue 20): the site's URL as whitelisted on DLT, serial and MAC as two variables.
        text: 'Your application to join the student wing is approved. Welcome, {#var#}! Your membership card: https://PLACEHOLDER_DOMAIN/card?#{#var#}.{#var#}',
      },
    },
    rejected: {
      en: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_REJECTED_EN',
        text: 'Your application to join the student wing was not approved this time, {#var#}.',
      },
    },
    // The withdrawal's confirmation (issue 21): service-implicit, no variable (docs/MESSAGING.md).
    withdrawn: {
      en: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_WITHDRAWN_EN',
        text: "Your application to join the Students' Wing has been withdrawn, as you asked, and your details have been erased. You may apply again at any time. - Students' Wing",
      },
      ta: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_WITHDRAWN_TA',
        text: 'நீங்கள் கேட்டுக்கொண்டபடி, மாணவர் அணியில் சேர நீங்கள் அனுப்பிய விண்ணப்பம் திரும்பப் பெறப்பட்டது; உங்கள் விவரங்கள் நிரந்தரமாக அழிக்கப்பட்டன. எப்போது வேண்டுமானாலும் மீண்டும் விண்ணப்பிக்கலாம். - மாணவர் அணி',
      },
    },
    // A grievance's answer (issue 21): its reference, then the answer page's link (id and
    // MAC), the site's URL whitelisted on DLT as for the card (docs/MESSAGING.md).
    grievanceAnswer: {
      en: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_GRIEVANCE_EN',
        text: "The Students' Wing has answered your grievance {#var#}. Read the answer: https://PLACEHOLDER_DOMAIN/grievance?#{#var#}.{#var#} - Students' Wing",
      },
      ta: {
        templateId: 'DLT_TEMPLATE_ID_PLACEHOLDER_GRIEVANCE_TA',
        text: 'உங்கள் குறை {#var#}-க்கு மாணவர் அணி பதிலளித்துள்ளது. பதிலைப் படிக்க: https://PLACEHOLDER_DOMAIN/grievance?#{#var#}.{#var#} - மாணவர் அணி',
      },
    },
  },
} as const;

/** WhatsApp utility templates of the decision notices: to be created and approved in WhatsApp Manager. */
const decisionTemplates = {
  approved: { name: 'application_approved', languages: { en: 'en', ta: 'ta' } },
  rejected: { name: 'application_rejected', languages: { en: 'en', ta: 'ta' } },
} as const;

/** SMS beside WhatsApp at `messagesPerSecond` message parts a second (the sender id's limit). */
function dltSms(messagesPerSecond: number) {
  return {
    originationIdentity: placeholderDlt.senderId,
    isoCountryCode: 'IN',
    entityId: placeholderDlt.entityId,
    messagesPerSecond,
    templates: placeholderDlt.templates,
  };
}

/** The prod numbers, sized by the rally model (docs/CAPACITY.md). */
const rally = rallyLimits();

/**
 * Until the wing names who answers for its data (README, "Deploy a stage"): the preflight and
 * the health route report it (lib/placeholders.ts), and the notice would show it to visitors.
 */
const placeholderDataContact = {
  name: "Data Protection Officer, Students' Wing",
  email: 'privacy@placeholder.invalid',
} as const;

const base = {
  region: 'ap-south-1',
  dataContact: placeholderDataContact,
  captcha: { siteKey: placeholderSiteKey, scoreThreshold: 0.5 },
  defaultLanguage: 'en',
  outbound: { maxReceiveCount: 5, retryBaseSeconds: 60 },
  limits: {
    otpTtlSeconds: 300,
    otpMaxAttempts: 5,
    otpResendSeconds: 60,
    otpMaxPerHour: 5,
    otpMaxPerDay: 10,
    otpMaxPerIpPerHour: 2000,
    otpVerifyMaxPerHour: 30,
    otpVerifyMaxPerIpPerHour: 4000,
    verificationTtlSeconds: 1800,
  },
  whatsapp: {
    authTemplate: 'auth2',
    authTemplateLanguage: 'en',
    // One template name, approved in WhatsApp Manager in both languages.
    welcomeTemplates: {
      en: { name: 'welcome_message', language: 'en_US' },
      ta: { name: 'welcome_message', language: 'ta' },
    },
    welcomeVideoUrl,
  },
} as const satisfies Partial<StageConfigInput>;

/** The public POST routes (the visitor's steps and Meta's webhook), each at `rate` a second and twice that in a burst. */
function publicRouteThrottles(rates: {
  otpRequest: number;
  otpStatus: number;
  otpVerify: number;
  submit: number;
  webhook: number;
}): Record<string, Throttle> {
  const limit = (rateLimit: number): Throttle => ({ rateLimit, burstLimit: rateLimit * 2 });
  return {
    'POST /api/otp/request': limit(rates.otpRequest),
    'POST /api/otp/status': limit(rates.otpStatus),
    'POST /api/otp/verify': limit(rates.otpVerify),
    'POST /api/applications': limit(rates.submit),
    'POST /api/whatsapp/webhook': limit(rates.webhook),
  };
}

/**
 * The member card's public POST routes (issue 20): a member opening their card, a door
 * steward checking QRs at an event. Far below the rally's steps; each at `rate` a second
 * (prod: lib/rally-model.ts).
 */
function cardRouteThrottles(rate: number): Record<string, Throttle> {
  const limit = { rateLimit: rate, burstLimit: rate * 2 };
  return {
    'POST /api/card': limit,
    'POST /api/card/mine': limit,
    'POST /api/card/status': limit,
    // "My application", its withdrawal and its correction (issue 21): each after a code, like "Get my card".
    'POST /api/me': limit,
    'POST /api/me/withdraw': limit,
    'POST /api/me/correct': limit,
  };
}

/**
 * Grievances' public POST routes (issue 21): one opened after a code, one with a contact
 * number behind the captcha, and the answer page; each at `rate` a second.
 */
function grievanceRouteThrottles(rate: number): Record<string, Throttle> {
  const limit = { rateLimit: rate, burstLimit: rate * 2 };
  return {
    'POST /api/me/grievances': limit,
    'POST /api/grievances': limit,
    'POST /api/grievances/answer': limit,
  };
}

export const stageConfigs: Record<StageName, StageConfigInput> = {
  dev: {
    ...base,
    stage: 'dev',
    retainData: false,
    logRetentionDays: 14,
    api: {
      throttleRateLimit: 20,
      throttleBurstLimit: 40,
      routeThrottles: {
        ...publicRouteThrottles({ otpRequest: 5, otpStatus: 20, otpVerify: 10, submit: 5, webhook: 20 }),
        ...cardRouteThrottles(10),
        ...grievanceRouteThrottles(5),
      },
    },
    waf: { enabled: false },
    messaging: {
      otpChannels: 'whatsapp-then-sms',
      smsOfferAfterSeconds: 30,
      whatsappTier: { uniqueRecipientsPer24h: 250, alarmShare: 0.8 },
      whatsappMessagesPerSecond: 80,
      // A new sender id's default rate until a quota increase (docs/CAPACITY.md).
      sms: dltSms(10),
      decisionNotices: { enabled: true, quietPeriodSeconds: 60, whatsappTemplates: decisionTemplates },
      withdrawalConfirmations: { enabled: true },
    },
  },
  staging: {
    ...base,
    stage: 'staging',
    retainData: false,
    logRetentionDays: 30,
    api: {
      throttleRateLimit: 50,
      throttleBurstLimit: 100,
      routeThrottles: {
        ...publicRouteThrottles({ otpRequest: 10, otpStatus: 50, otpVerify: 20, submit: 10, webhook: 50 }),
        ...cardRouteThrottles(20),
        ...grievanceRouteThrottles(5),
      },
    },
    waf: { enabled: false },
    messaging: {
      otpChannels: 'whatsapp-then-sms',
      smsOfferAfterSeconds: 30,
      whatsappTier: { uniqueRecipientsPer24h: 250, alarmShare: 0.8 },
      whatsappMessagesPerSecond: 80,
      sms: dltSms(10),
      decisionNotices: { enabled: true, quietPeriodSeconds: 300, whatsappTemplates: decisionTemplates },
      withdrawalConfirmations: { enabled: true },
    },
  },
  prod: {
    ...base,
    stage: 'prod',
    retainData: true,
    logRetentionDays: 90,
    // Every number below comes from the rally model (lib/rally-model.ts, docs/CAPACITY.md):
    // 5,000 students in 10 minutes, 50 new visitors a second at the peak, 2,000 behind one address.
    api: {
      throttleRateLimit: rally.stageDefault.rateLimit,
      throttleBurstLimit: rally.stageDefault.burstLimit,
      routeThrottles: rally.routes,
      // A hanging provider ties up code requests, not the other steps (needs an account
      // concurrency quota of at least this plus 100 unreserved: docs/CAPACITY.md).
      reservedConcurrency: { 'otp-request': rally.otpRequestReserved },
    },
    outbound: { maxReceiveCount: 5, retryBaseSeconds: 60, maxConcurrency: rally.outboundMaxConcurrency },
    limits: {
      ...base.limits,
      otpMaxPerIpPerHour: rally.otpMaxPerIpPerHour,
      otpVerifyMaxPerIpPerHour: 2 * rally.otpMaxPerIpPerHour,
    },
    waf: { enabled: true, otpRequestLimit: rally.wafOtpRequestsPer5Minutes, otpRequestWindowSeconds: 300 },
    messaging: {
      otpChannels: 'whatsapp-then-sms',
      smsOfferAfterSeconds: 30,
      // A new business portfolio's tier: raise it here when Meta raises it (RUNBOOK, whatsapp-tier).
      whatsappTier: { uniqueRecipientsPer24h: rallyModel.whatsappTierUniquePer24h, alarmShare: 0.8 },
      whatsappMessagesPerSecond: rallyModel.whatsappMessagesPerSecond,
      // What the rally needs once the sender id's quota increase is granted (docs/CAPACITY.md).
      sms: dltSms(rally.smsPartsPerSecond),
      // On once the decision templates are approved in WhatsApp Manager and DLT (README).
      decisionNotices: { enabled: false, quietPeriodSeconds: 300, whatsappTemplates: decisionTemplates },
      // On once withdrawal_confirmed is approved in WhatsApp Manager and DLT (README).
      withdrawalConfirmations: { enabled: false },
    },
  },
};

/** The validated configuration of a stage; throws with the failing fields. */
export function loadStageConfig(stage: unknown): StageConfig {
  const name = stageNameSchema.safeParse(stage ?? 'dev');
  if (!name.success) {
    throw new Error(`Unknown stage ${JSON.stringify(stage)}: use one of ${stageNames.join(', ')}`);
  }
  const result = stageConfigSchema.safeParse(stageConfigs[name.data]);
  if (!result.success) {
    throw new Error(`Invalid configuration of stage ${name.data}:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** Physical-name prefix: every explicit resource name carries the stage. */
export function resourcePrefix(config: Pick<StageConfig, 'stage'>): string {
  return `membership-${config.stage}`;
}
