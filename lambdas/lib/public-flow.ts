import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeSecretsLoader, type Secrets, secretsEnvSchema } from '../adapters/secrets';
import { makeWhatsAppGateway, type MessageGateway, WhatsAppError } from '../adapters/whatsapp';
import { makeDocumentClient } from './dynamo';
import { parseEnv, publicFlowEnvSchema, type PublicFlowEnv } from './env';
import { AppError } from './http';

// What every public-flow handler is wired from: its settings, one DynamoDB client, the
// secrets (read once, cached) and the message gateway built from them.
export interface PublicFlowRuntime {
  readonly env: PublicFlowEnv;
  readonly db: DynamoDBDocumentClient;
  readonly secrets: () => Promise<Secrets>;
  readonly gateway: () => Promise<MessageGateway>;
}

export function publicFlowRuntime(processEnv: NodeJS.ProcessEnv = process.env): PublicFlowRuntime {
  const env = parseEnv(publicFlowEnvSchema, processEnv);
  const secrets = makeSecretsLoader(parseEnv(secretsEnvSchema, processEnv));
  return {
    env,
    db: makeDocumentClient(env),
    secrets,
    gateway: async () => {
      const s = await secrets();
      return makeWhatsAppGateway({
        baseUrl: env.WHATSAPP_API_BASE_URL,
        apiVersion: env.WHATSAPP_API_VERSION,
        accessToken: s.whatsappToken,
        phoneNumberId: s.whatsappPhoneNumberId,
        timeoutMs: env.WHATSAPP_TIMEOUT_MS,
        authTemplate: { name: env.WHATSAPP_AUTH_TEMPLATE, language: env.WHATSAPP_AUTH_LANGUAGE },
        welcomeTemplate: {
          name: env.WHATSAPP_WELCOME_TEMPLATE,
          language: env.WHATSAPP_WELCOME_LANGUAGE,
          ...(env.WHATSAPP_WELCOME_VIDEO_URL && { videoLink: env.WHATSAPP_WELCOME_VIDEO_URL }),
        },
      });
    },
  };
}

/** The spec's messages for a failed OTP send. */
export function otpSendError(error: unknown): AppError {
  if (!(error instanceof WhatsAppError)) return new AppError('WHATSAPP_SEND_FAILED');
  switch (error.failure) {
    case 'not-configured':
      return new AppError('WHATSAPP_NOT_CONFIGURED');
    case 'invalid-phone-number-id':
      return new AppError('WHATSAPP_INVALID_PHONE_NUMBER_ID');
    case 'network':
      return new AppError('NETWORK_ERROR');
    case 'provider':
      return new AppError('WHATSAPP_SEND_FAILED', { ...(error.provider.code && { providerCode: error.provider.code }) }, error.provider.message);
  }
}

/** Client addresses are kept only as a hash in rate-limit keys. */
export function ipKey(ip: string): string {
  return createHash('sha256').update(ip).digest('base64url').slice(0, 22);
}
