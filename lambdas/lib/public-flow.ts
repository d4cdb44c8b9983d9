import { createHmac } from 'node:crypto';
import { type Db } from './db';
import { type DeliveryStore, makeDeliveryStore } from '../adapters/deliveries';
import { makeSecretsLoader, type SecretsLoader, secretsEnvSchema } from '../adapters/secrets';
import { makeSmsGateway, type SmsGateway } from '../adapters/sms';
import { makeWhatsAppGateway, type MessageGateway } from '../adapters/whatsapp';
import { makeWhatsAppRecipients, type WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import { makeDocumentClient } from './dynamo';
import { parseEnv, publicFlowEnvSchema, type PublicFlowEnv, tableName } from './env';
import { makeOtpChannels, type OtpChannels } from './otp-channels';

// What every public-flow handler is wired from: its settings, one DynamoDB client, the
// secrets it was granted (read when first needed, cached) and the message gateway built from them.
export interface PublicFlowRuntime {
  readonly env: PublicFlowEnv;
  readonly db: Db;
  readonly secrets: SecretsLoader;
  /** The two generated keys together, for the handlers that use both. */
  readonly keys: () => Promise<{ otpHashKey: string; verificationSigningKey: string }>;
  readonly gateway: () => Promise<MessageGateway>;
  /** SMS through End User Messaging SMS with the stage's DLT settings. */
  readonly sms: () => Promise<SmsGateway>;
  /** Delivery status of accepted messages (needs the deliveries table: read lazily). */
  readonly deliveries: () => DeliveryStore;
  /** Unique WhatsApp recipients of the last 24 hours, against the messaging tier. */
  readonly recipients: () => WhatsAppRecipients;
  /** The stage's channels for a code, with the fallback. */
  readonly otpChannels: () => OtpChannels;
}

export function publicFlowRuntime(processEnv: NodeJS.ProcessEnv = process.env): PublicFlowRuntime {
  const env = parseEnv(publicFlowEnvSchema, processEnv);
  const secrets = makeSecretsLoader(parseEnv(secretsEnvSchema, processEnv));
  const db = makeDocumentClient(env);
  const once = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const sms = once(() =>
    makeSmsGateway({
      region: env.AWS_REGION,
      ...(env.SMS_ENDPOINT && { endpoint: env.SMS_ENDPOINT }),
      originationIdentity: env.SMS_ORIGINATION_IDENTITY,
      configurationSet: env.SMS_CONFIGURATION_SET,
      entityId: env.SMS_ENTITY_ID,
      timeoutMs: env.SMS_TIMEOUT_MS,
    }),
  );
  const deliveries = once(() => makeDeliveryStore(db, tableName('deliveries', processEnv)));
  const recipients = once(() => makeWhatsAppRecipients(db, tableName('deliveries', processEnv), secrets.otpHashKey));
  const runtime: PublicFlowRuntime = {
    env,
    db,
    secrets,
    keys: async () => {
      const [otpHashKey, verificationSigningKey] = await Promise.all([secrets.otpHashKey(), secrets.signingKey()]);
      return { otpHashKey, verificationSigningKey };
    },
    sms: () => Promise.resolve(sms()),
    deliveries,
    recipients,
    otpChannels: once(() =>
      makeOtpChannels({
        mode: env.OTP_CHANNELS,
        whatsapp: runtime.gateway,
        sms: runtime.sms,
        smsTemplates: env.SMS_TEMPLATES === '' ? undefined : env.SMS_TEMPLATES,
        recipients: recipients(),
        tierLimit: env.WHATSAPP_TIER_UNIQUE_PER_24H,
      }),
    ),
    gateway: async () => {
      const s = await secrets.provider();
      return makeWhatsAppGateway({
        baseUrl: env.WHATSAPP_API_BASE_URL,
        apiVersion: env.WHATSAPP_API_VERSION,
        accessToken: s.whatsappToken,
        phoneNumberId: s.whatsappPhoneNumberId,
        timeoutMs: env.WHATSAPP_TIMEOUT_MS,
        authTemplate: { name: env.WHATSAPP_AUTH_TEMPLATE, language: env.WHATSAPP_AUTH_LANGUAGE },
        welcomeTemplates: env.WHATSAPP_WELCOME_TEMPLATES,
        ...(env.WHATSAPP_WELCOME_VIDEO_URL && { welcomeVideoLink: env.WHATSAPP_WELCOME_VIDEO_URL }),
      });
    },
  };
  return runtime;
}

/**
 * Client addresses are kept only as a keyed hash in rate-limit keys: a plain hash of an
 * IPv4 address is undone by hashing all 2^32 of them, which would tell who asked for
 * codes from where.
 */
export function ipKey(secret: string, ip: string): string {
  return createHmac('sha256', secret).update(`viewer-address\0${ip}`).digest('base64url').slice(0, 22);
}
