import { z } from 'zod';

// One typed configuration per deployable stage. No secrets here: secret values live in
// Secrets Manager and are filled by the operator (see the Data stack). `bin/app.ts`
// picks a stage from `-c stage=<name>` and parses it with `stageConfigSchema`.

export const stageNames = ['dev', 'staging', 'prod'] as const;
export const stageNameSchema = z.enum(stageNames);
export type StageName = z.infer<typeof stageNameSchema>;

export const stageConfigSchema = z.object({
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
  }),
  captcha: z.object({
    /** reCAPTCHA v3 site key: public by design (it is in every page). */
    siteKey: z.string().min(1),
    scoreThreshold: z.number().min(0).max(1).default(0.5),
  }),
  defaultLanguage: z.enum(['en', 'ta']).default('en'),
  outbound: z.object({
    /** Receives before a message lands in the dead-letter queue. */
    maxReceiveCount: z.number().int().min(1).max(1000).default(5),
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
  /** Receives the dead-letter alarms. */
  alarmEmail: z.email().optional(),
  /** Optional own domain for the site; the certificate must be in us-east-1 (CloudFront). */
  customDomain: z
    .object({
      domainName: z.string().min(3),
      certificateArn: z.string().startsWith('arn:aws:acm:us-east-1:'),
    })
    .optional(),
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
  outbound: { maxReceiveCount: 5 },
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

export const stageConfigs: Record<StageName, StageConfigInput> = {
  dev: {
    ...base,
    stage: 'dev',
    retainData: false,
    logRetentionDays: 14,
    api: { throttleRateLimit: 20, throttleBurstLimit: 40 },
  },
  staging: {
    ...base,
    stage: 'staging',
    retainData: false,
    logRetentionDays: 30,
    api: { throttleRateLimit: 50, throttleBurstLimit: 100 },
  },
  prod: {
    ...base,
    stage: 'prod',
    retainData: true,
    logRetentionDays: 90,
    // A rally ends and a campus applies at once: generous burst, captcha and per-number limits do the rest.
    api: { throttleRateLimit: 200, throttleBurstLimit: 400 },
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
