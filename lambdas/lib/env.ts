import * as z from 'zod';
import { tables, type TableKey } from '../../lib/table-definitions';

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
  WHATSAPP_WELCOME_TEMPLATE: z.string().default('welcome_message'),
  WHATSAPP_WELCOME_LANGUAGE: z.string().default('en_US'),
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
  VERIFICATION_TTL_SECONDS: int(1800),
  OUTBOUND_QUEUE_URL: z.string().default(''),
  WEBHOOK_TIMEOUT_MS: int(8000),
});
export type PublicFlowEnv = z.infer<typeof publicFlowEnvSchema>;
