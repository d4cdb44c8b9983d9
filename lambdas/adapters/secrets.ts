import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import * as z from 'zod';

// Secrets never sit in environment variables, the template or the bundle: functions
// get the ARNs of the secrets they were granted and read the values when first needed,
// cached for a few minutes so that a rotation takes effect without a redeploy. Each key
// is a secret of its own, so a function is granted exactly the ones it uses: the outbound
// consumer cannot read the verification signing key, otp-verify cannot read the WhatsApp
// token (lib/functions.ts, `secrets` of each route and background function).

/** Filled in by the operator after the first deploy; empty values mean "not configured". */
export const providerSecretsSchema = z.object({
  whatsappToken: z.string().default(''),
  whatsappPhoneNumberId: z.string().default(''),
  /** The Meta app's secret: X-Hub-Signature-256 of every webhook POST is an HMAC with it. */
  whatsappAppSecret: z.string().default(''),
  /** What the operator typed as "Verify token" when subscribing the webhook in Meta's console. */
  whatsappVerifyToken: z.string().default(''),
  webhookUrl: z.string().default(''),
  webhookUsername: z.string().default(''),
  webhookPassword: z.string().default(''),
  recaptchaSecret: z.string().default(''),
});
export type ProviderSecrets = z.infer<typeof providerSecretsSchema>;

/** A generated key's secret: `{"value": "..."}`. */
const generatedKeySchema = z.object({ value: z.string().min(32) });

/**
 * The token CloudFront sends to the API as `x-origin-verify`. Two values during a rotation:
 * the API accepts `current` and `previous` until CloudFront sends the new one everywhere.
 */
const originSecretSchema = z.object({
  current: z.string().min(32),
  previous: z.string().default(''),
});
export type OriginTokens = z.infer<typeof originSecretSchema>;

/** Local mode: every value in one JSON (local/config.ts). */
const localSecretsSchema = providerSecretsSchema.extend({
  otpHashKey: z.string().min(32),
  verificationSigningKey: z.string().min(32),
});

export const secretsEnvSchema = z.object({
  APP_MODE: z.enum(['aws', 'local']).default('aws'),
  PROVIDER_SECRET_ARN: z.string().optional(),
  OTP_HASH_KEY_SECRET_ARN: z.string().optional(),
  SIGNING_KEY_SECRET_ARN: z.string().optional(),
  ORIGIN_SECRET_ARN: z.string().optional(),
  LOCAL_SECRETS: z.string().optional(),
});
export type SecretsEnv = z.infer<typeof secretsEnvSchema>;

const SECRETS_MAX_AGE_SECONDS = 300;

/** Parses a secret's JSON; the error names the secret and the fields, never a value. */
function parseSecret<T extends z.ZodType>(schema: T, raw: unknown, what: string): z.infer<T> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new Error(`Secret ${what} is not JSON`);
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(
      `Secret ${what} is missing or has invalid fields: ${result.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  }
  return result.data;
}

/** The stage's secrets, each read when first asked for; a function asks only for those it was granted. */
export interface SecretsLoader {
  readonly provider: () => Promise<ProviderSecrets>;
  /** HMAC key of stored codes, rate-limit address keys and unique-recipient counts. */
  readonly otpHashKey: () => Promise<string>;
  /** Signs verifications and seals delivery handles. */
  readonly signingKey: () => Promise<string>;
  /** CloudFront's origin token(s); AWS mode only (locally the API adapter is the front door). */
  readonly origin: () => Promise<OriginTokens>;
}

export function makeSecretsLoader(env: SecretsEnv, client?: SecretsManagerClient): SecretsLoader {
  if (env.APP_MODE === 'local') {
    const local = () => parseSecret(localSecretsSchema, env.LOCAL_SECRETS ?? '{}', 'LOCAL_SECRETS');
    return {
      provider: () => Promise.resolve(parseSecret(providerSecretsSchema, env.LOCAL_SECRETS ?? '{}', 'LOCAL_SECRETS')),
      otpHashKey: () => Promise.resolve(local().otpHashKey),
      signingKey: () => Promise.resolve(local().verificationSigningKey),
      origin: () => Promise.reject(new Error('No origin token in local mode')),
    };
  }
  let provider: SecretsProvider | undefined;
  /** A granted secret's JSON by the ARN in its variable; a clear error when it was not granted. */
  const read = async <T extends z.ZodType>(
    variable: keyof SecretsEnv,
    schema: T,
    what: string,
  ): Promise<z.infer<T>> => {
    const arn = env[variable];
    if (!arn) throw new Error(`Invalid function configuration: ${variable} (secret ${what} not granted)`);
    provider ??= new SecretsProvider({ awsSdkV3Client: client ?? new SecretsManagerClient({}) });
    return parseSecret(schema, await provider.get(arn, { maxAge: SECRETS_MAX_AGE_SECONDS }), what);
  };
  return {
    provider: () => read('PROVIDER_SECRET_ARN', providerSecretsSchema, 'provider'),
    otpHashKey: async () => (await read('OTP_HASH_KEY_SECRET_ARN', generatedKeySchema, 'otpHashKey')).value,
    signingKey: async () => (await read('SIGNING_KEY_SECRET_ARN', generatedKeySchema, 'signingKey')).value,
    origin: () => read('ORIGIN_SECRET_ARN', originSecretSchema, 'origin'),
  };
}
