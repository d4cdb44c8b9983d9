import { z } from 'zod';
import { routes } from './api-routes';

// One typed configuration per deployable stage. No secrets here: secret values live in
// Secrets Manager and are filled by the operator (see the Data stack). `bin/app.ts`
// picks a stage from `-c stage=<name>` and parses it with `stageConfigSchema`.

export const stageNames = ['dev', 'staging', 'prod'] as const;
export const stageNameSchema = z.enum(stageNames);
export type StageName = z.infer<typeof stageNameSchema>;

/** A route's key as API Gateway names it: `POST /api/otp/request`. */
export const routeKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

const throttleSchema = z.object({
  /** Steady-state requests per second. */
  rateLimit: z.number().positive(),
  /** Requests API Gateway admits at once above the steady rate. */
  burstLimit: z.number().int().positive(),
});
export type Throttle = z.infer<typeof throttleSchema>;

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
  /** Where each alarm's description points the operator; `#<anchor>` is appended. */
  runbookUrl: z.string().min(1).default('docs/RUNBOOK.md'),
});
export type AlarmThresholds = z.infer<typeof alarmThresholdsSchema>;

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
export type WafConfig = z.infer<typeof wafSchema>;

export const stageConfigSchema = z
  .object({
    stage: stageNameSchema,
    /** Region every stack of the stage deploys to (Mumbai serves Tamil Nadu best). */
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/),
    /** Data outlives its stack: RETAIN + deletion protection. Off only for throw-away stages. */
    retainData: z.boolean(),
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
      verificationTtlSeconds: z.number().int().positive().default(1800),
    }),
    whatsapp: z.object({
      authTemplate: z.string().min(1).default('auth2'),
      authTemplateLanguage: z.string().min(2).default('en'),
      welcomeTemplate: z.string().min(1).default('welcome_message'),
      welcomeTemplateLanguage: z.string().min(2).default('en_US'),
      welcomeVideoUrl: z.url(),
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
  });
export type StageConfig = z.infer<typeof stageConfigSchema>;
type StageConfigInput = z.input<typeof stageConfigSchema>;

/** Placeholder until the real reCAPTCHA keys are registered for the site's domain. */
const placeholderSiteKey = 'RECAPTCHA_SITE_KEY_PLACEHOLDER';
const welcomeVideoUrl = 'https://www.youtube.com/watch?v=PLACEHOLDER';

const base = {
  region: 'ap-south-1',
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
    verificationTtlSeconds: 1800,
  },
  whatsapp: {
    authTemplate: 'auth2',
    authTemplateLanguage: 'en',
    welcomeTemplate: 'welcome_message',
    welcomeTemplateLanguage: 'en_US',
    welcomeVideoUrl,
  },
} as const satisfies Partial<StageConfigInput>;

/** The public flow's routes that cost money or write, each at `rate` a second and twice that in a burst. */
function publicRouteThrottles(rates: {
  otpRequest: number;
  otpVerify: number;
  submit: number;
}): Record<string, Throttle> {
  const limit = (rateLimit: number): Throttle => ({ rateLimit, burstLimit: rateLimit * 2 });
  return {
    'POST /api/otp/request': limit(rates.otpRequest),
    'POST /api/otp/verify': limit(rates.otpVerify),
    'POST /api/applications': limit(rates.submit),
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
      routeThrottles: publicRouteThrottles({ otpRequest: 5, otpVerify: 10, submit: 5 }),
    },
    waf: { enabled: false },
  },
  staging: {
    ...base,
    stage: 'staging',
    retainData: false,
    logRetentionDays: 30,
    api: {
      throttleRateLimit: 50,
      throttleBurstLimit: 100,
      routeThrottles: publicRouteThrottles({ otpRequest: 10, otpVerify: 20, submit: 10 }),
    },
    waf: { enabled: false },
  },
  prod: {
    ...base,
    stage: 'prod',
    retainData: true,
    logRetentionDays: 90,
    // A rally ends and a campus applies at once: generous burst, captcha and per-number limits do the rest.
    api: {
      throttleRateLimit: 200,
      throttleBurstLimit: 400,
      // Each code is a paid WhatsApp message: 20 a second is 72,000 an hour, far above any
      // rally, and caps what a captcha-solving flood can spend before the alarms speak.
      routeThrottles: publicRouteThrottles({ otpRequest: 20, otpVerify: 40, submit: 30 }),
    },
    waf: { enabled: true, otpRequestLimit: 300, otpRequestWindowSeconds: 300 },
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
