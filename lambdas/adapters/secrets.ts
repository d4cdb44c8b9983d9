import * as v from 'valibot';
import { issuePath, notArray } from '../../rules/schema';
import { type AwsJsonCall, type AwsJsonOptions, awsJson } from '../lib/aws-json';

// Secrets never sit in environment variables, the template or the bundle: functions
// get the ARNs of the secrets they were granted and read the values when first needed,
// cached for a few minutes so that a rotation takes effect without a redeploy. Each key
// is a secret of its own, so a function is granted exactly the ones it uses: the outbound
// consumer cannot read the verification signing key, otp-verify cannot read the WhatsApp
// token (lib/functions.ts, `secrets` of each route and background function).
//
// Secrets Manager's GetSecretValue goes over lambdas/lib/aws-json.ts, not the SDK's
// client and Powertools' provider, which cost each cold start that loads them (issue 16);
// the cache is ours: per ARN, SECRETS_MAX_AGE_MS, one request for concurrent first reads.

/** Filled in by the operator after the first deploy; empty values mean "not configured". */
export const providerSecretEntries = {
  whatsappToken: v.optional(v.string(), ''),
  whatsappPhoneNumberId: v.optional(v.string(), ''),
  /** The Meta app's secret: X-Hub-Signature-256 of every webhook POST is an HMAC with it. */
  whatsappAppSecret: v.optional(v.string(), ''),
  /** What the operator typed as "Verify token" when subscribing the webhook in Meta's console. */
  whatsappVerifyToken: v.optional(v.string(), ''),
  webhookUrl: v.optional(v.string(), ''),
  webhookUsername: v.optional(v.string(), ''),
  webhookPassword: v.optional(v.string(), ''),
  recaptchaSecret: v.optional(v.string(), ''),
};
export const providerSecretsSchema = notArray(v.object(providerSecretEntries));
export type ProviderSecrets = v.InferOutput<typeof providerSecretsSchema>;

/** A generated key's secret: `{"value": "..."}`. */
const generatedKeySchema = v.object({ value: v.pipe(v.string(), v.minLength(32)) });

/**
 * The member cards' key (issue 20): `value` signs and makes links; `previous`, during a
 * rotation, still checks (docs/RUNBOOK.md, "Rotating the card key").
 */
const cardKeySchema = v.object({
  value: v.pipe(v.string(), v.minLength(32)),
  previous: v.optional(v.string(), ''),
});
export interface CardKeySecret {
  readonly current: string;
  /** '' when there is none. */
  readonly previous: string;
}

/**
 * The token CloudFront sends to the API as `x-origin-verify`. Two values during a rotation:
 * the API accepts `current` and `previous` until CloudFront sends the new one everywhere.
 */
const originSecretSchema = v.object({
  current: v.pipe(v.string(), v.minLength(32)),
  previous: v.optional(v.string(), ''),
});
export type OriginTokens = v.InferOutput<typeof originSecretSchema>;

/** Local mode: every value in one JSON (local/config.ts). */
const localSecretsSchema = v.object({
  ...providerSecretEntries,
  otpHashKey: v.pipe(v.string(), v.minLength(32)),
  verificationSigningKey: v.pipe(v.string(), v.minLength(32)),
  cardKey: v.optional(v.pipe(v.string(), v.minLength(32))),
  cardKeyPrevious: v.optional(v.string(), ''),
});

export const secretsEnvSchema = v.object({
  APP_MODE: v.optional(v.picklist(['aws', 'local']), 'aws'),
  PROVIDER_SECRET_ARN: v.optional(v.string()),
  OTP_HASH_KEY_SECRET_ARN: v.optional(v.string()),
  SIGNING_KEY_SECRET_ARN: v.optional(v.string()),
  CARD_KEY_SECRET_ARN: v.optional(v.string()),
  ORIGIN_SECRET_ARN: v.optional(v.string()),
  LOCAL_SECRETS: v.optional(v.string()),
  AWS_REGION: v.optional(v.string(), 'ap-south-1'),
});
export type SecretsEnv = v.InferOutput<typeof secretsEnvSchema>;

const SECRETS_MAX_AGE_MS = 300_000;

/** Parses a secret's JSON; the error names the secret and the fields, never a value. */
function parseSecret<T extends v.GenericSchema>(schema: T, raw: unknown, what: string): v.InferOutput<T> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new Error(`Secret ${what} is not JSON`);
    }
  }
  const result = v.safeParse(schema, value);
  if (!result.success) {
    throw new Error(`Secret ${what} is missing or has invalid fields: ${result.issues.map(issuePath).join(', ')}`);
  }
  return result.output;
}

/** The stage's secrets, each read when first asked for; a function asks only for those it was granted. */
export interface SecretsLoader {
  readonly provider: () => Promise<ProviderSecrets>;
  /** HMAC key of stored codes, rate-limit address keys and unique-recipient counts. */
  readonly otpHashKey: () => Promise<string>;
  /** Signs verifications and seals delivery handles. */
  readonly signingKey: () => Promise<string>;
  /** The member cards' key, and the one it replaced while a rotation lasts. */
  readonly cardKey: () => Promise<CardKeySecret>;
  /** CloudFront's origin token(s); AWS mode only (locally the API adapter is the front door). */
  readonly origin: () => Promise<OriginTokens>;
}

/** Tests: the transport under Secrets Manager's caller (a fake fetch, fixed credentials) and the clock. */
export interface SecretsLoaderOptions {
  readonly aws?: Pick<AwsJsonOptions, 'fetch' | 'credentials' | 'sleep' | 'endpoint'>;
  readonly now?: () => number;
}

/**
 * A secret's text by ARN, read again once it is SECRETS_MAX_AGE_MS old (so that a rotation
 * takes effect without a redeploy). Concurrent first reads share one request; a failed read
 * is forgotten, so that the next call tries again.
 */
function cachedSecretStrings(call: AwsJsonCall, now: () => number): (arn: string) => Promise<string> {
  const cache = new Map<string, { readonly value: Promise<string>; expires: number }>();
  const fetchSecret = async (arn: string): Promise<string> => {
    const output = await call<{ SecretString?: unknown }>('GetSecretValue', { SecretId: arn });
    if (typeof output.SecretString !== 'string') throw new Error(`Secret ${arn} has no SecretString`);
    return output.SecretString;
  };
  return (arn) => {
    const hit = cache.get(arn);
    if (hit && now() < hit.expires) return hit.value;
    const entry = { value: fetchSecret(arn), expires: Number.POSITIVE_INFINITY };
    cache.set(arn, entry);
    entry.value.then(
      () => {
        entry.expires = now() + SECRETS_MAX_AGE_MS;
      },
      () => {
        if (cache.get(arn) === entry) cache.delete(arn);
      },
    );
    return entry.value;
  };
}

export function makeSecretsLoader(env: SecretsEnv, options: SecretsLoaderOptions = {}): SecretsLoader {
  if (env.APP_MODE === 'local') {
    const local = () => parseSecret(localSecretsSchema, env.LOCAL_SECRETS ?? '{}', 'LOCAL_SECRETS');
    return {
      provider: () => Promise.resolve(parseSecret(providerSecretsSchema, env.LOCAL_SECRETS ?? '{}', 'LOCAL_SECRETS')),
      otpHashKey: () => Promise.resolve(local().otpHashKey),
      signingKey: () => Promise.resolve(local().verificationSigningKey),
      cardKey: async () => {
        const { cardKey, cardKeyPrevious } = local();
        if (!cardKey) throw new Error('Secret LOCAL_SECRETS has no cardKey');
        return { current: cardKey, previous: cardKeyPrevious };
      },
      origin: () => Promise.reject(new Error('No origin token in local mode')),
    };
  }
  const secretString = cachedSecretStrings(
    awsJson({
      service: 'secretsmanager',
      targetPrefix: 'secretsmanager',
      jsonVersion: '1.1',
      region: env.AWS_REGION,
      ...options.aws,
    }),
    options.now ?? Date.now,
  );
  /** A granted secret's JSON by the ARN in its variable; a clear error when it was not granted. */
  const read = async <T extends v.GenericSchema>(
    variable: Extract<keyof SecretsEnv, `${string}_ARN`>,
    schema: T,
    what: string,
  ): Promise<v.InferOutput<T>> => {
    const arn = env[variable];
    if (!arn) throw new Error(`Invalid function configuration: ${variable} (secret ${what} not granted)`);
    return parseSecret(schema, await secretString(arn), what);
  };
  return {
    provider: () => read('PROVIDER_SECRET_ARN', providerSecretsSchema, 'provider'),
    otpHashKey: async () => (await read('OTP_HASH_KEY_SECRET_ARN', generatedKeySchema, 'otpHashKey')).value,
    signingKey: async () => (await read('SIGNING_KEY_SECRET_ARN', generatedKeySchema, 'signingKey')).value,
    cardKey: async () => {
      const { value, previous } = await read('CARD_KEY_SECRET_ARN', cardKeySchema, 'cardKey');
      return { current: value, previous };
    },
    origin: () => read('ORIGIN_SECRET_ARN', originSecretSchema, 'origin'),
  };
}
