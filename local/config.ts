import { z } from 'zod';

// Settings of the local stack, from the environment, with the documented defaults.
export const localConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(5173),
  LOCAL_DATA_DIR: z.string().default('.local'),
  /** 'memory' keeps DynamoDB in memory (tests); 'disk' persists under LOCAL_DATA_DIR. */
  LOCAL_PERSISTENCE: z.enum(['disk', 'memory']).default('disk'),
  LOCAL_ADMIN_EMAIL: z.email().default('admin@example.com'),
  LOCAL_ADMIN_PASSWORD: z.string().min(8).default('Admin-Password-123!'),
  LOCAL_DEFAULT_LANGUAGE: z.enum(['en', 'ta']).default('en'),
  /**
   * First retry delay of the outbound queue (doubles per receive, like the consumer's
   * backoff). Tests make it small so that retries and the dead-letter path run in seconds.
   */
  LOCAL_QUEUE_VISIBILITY_MS: z.coerce.number().int().min(1).default(30_000),
  /** Serve the SPA through Vite; off when only the API is wanted. */
  LOCAL_WEB: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type LocalConfig = z.infer<typeof localConfigSchema>;

/** Credentials of the local stand-ins: fixed, fake, and known to everybody on purpose. */
export const localSecrets = {
  whatsappToken: 'local-whatsapp-token',
  whatsappPhoneNumberId: '100000000000001',
  whatsappAppSecret: 'local-whatsapp-app-secret',
  whatsappVerifyToken: 'local-whatsapp-verify-token',
  webhookUsername: 'local-webhook',
  webhookPassword: 'local-webhook-password',
  recaptchaSecret: 'local-recaptcha-secret',
  recaptchaSiteKey: 'local-recaptcha-site-key',
  otpHashKey: 'local-otp-hash-key-not-for-production',
  verificationSigningKey: 'local-verification-signing-key-not-for-production',
} as const;
