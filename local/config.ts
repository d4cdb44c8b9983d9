import { z } from 'zod';
import { GRIEVANCE_PAGE_PATH, SMS_GRIEVANCE_PAGE_PREFIX } from '../rules/grievances';
import { CARD_PAGE_PATH, SMS_CARD_PAGE_PREFIX } from '../rules/member-card';

// Settings of the local stack, from the environment, with the documented defaults.
export const localConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(5173),
  LOCAL_DATA_DIR: z.string().default('.local'),
  /** 'memory' keeps DynamoDB in memory (tests); 'disk' persists under LOCAL_DATA_DIR. */
  LOCAL_PERSISTENCE: z.enum(['disk', 'memory']).default('disk'),
  LOCAL_ADMIN_EMAIL: z.email().default('admin@example.com'),
  LOCAL_ADMIN_PASSWORD: z.string().min(8).default('Admin-Password-123!'),
  /** A seeded coordinator of Chennai and Tiruvallur, to see the scoped staff area at once. */
  LOCAL_COORDINATOR_EMAIL: z.email().default('coordinator@example.com'),
  LOCAL_COORDINATOR_PASSWORD: z.string().min(8).default('Coordinator-Password-123!'),
  LOCAL_DEFAULT_LANGUAGE: z.enum(['en', 'ta']).default('en'),
  /**
   * First retry delay of the outbound queue (doubles per receive, like the consumer's
   * backoff). Tests make it small so that retries and the dead-letter path run in seconds.
   */
  LOCAL_QUEUE_VISIBILITY_MS: z.coerce.number().int().min(1).default(30_000),
  /** Which channels carry the code (OTP_CHANNELS): `sms` also gives the functions no WhatsApp settings at all. */
  LOCAL_OTP_CHANNELS: z.enum(['whatsapp', 'sms', 'whatsapp-then-sms']).default('whatsapp-then-sms'),
  /** A WhatsApp code not reported delivered after this long: the page offers SMS (OTP_SMS_OFFER_AFTER_SECONDS). */
  LOCAL_SMS_OFFER_AFTER_SECONDS: z.coerce.number().int().min(1).default(30),
  /**
   * The WhatsApp messaging tier, unique recipients in 24 hours (WHATSAPP_TIER_UNIQUE_PER_24H);
   * 0: unlimited. The sandbox enforces the same cap.
   */
  LOCAL_WHATSAPP_TIER: z.coerce.number().int().min(0).default(0),
  /** How long a decision must stand before its notice goes (DECISION_QUIET_SECONDS). */
  LOCAL_DECISION_QUIET_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /**
   * A built SPA (`vite build`'s folder) to serve instead of Vite's dev server: what a
   * deployment serves, minified, in a few files. The browser tier builds once and serves
   * that from every stack it starts (test/support/e2e-setup.ts); `npm start` keeps the dev
   * server and its hot reload.
   */
  LOCAL_WEB_DIST: z.string().optional(),
  /**
   * A DynamoDB Local already running, to make this stack's tables in (under a prefix of its
   * own, deleted on stop) instead of starting one: the test tiers start one for all their
   * stacks. Data persistence is then that server's.
   */
  LOCAL_DYNAMODB_ENDPOINT: z.string().url().optional(),
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
  /** The member cards' key (issue 20): the QR's signing key and the links' HMAC key are derived from it. */
  cardKey: 'local-member-card-key-not-for-production-0123',
} as const;

/**
 * The approval's SMS with the member's card link (issue 20): the URL is the template's
 * own text up to the card page's `?#`, whitelisted as a dynamic URL (DLT's CTA whitelist),
 * and the serial and the MAC are two variables (each at most 30 characters).
 */
function approvedSmsTemplates(siteUrl: string) {
  const link = `${siteUrl}${SMS_CARD_PAGE_PREFIX}{#var#}.{#var#}`;
  return {
    en: {
      templateId: '1207000000000000201',
      text: `Your application to join the Students' Wing has been approved. Welcome to the Wing! Your membership card: ${link} - Students' Wing`,
    },
    ta: {
      templateId: '1207000000000000202',
      text: `மாணவர் அணியில் சேர நீங்கள் அனுப்பிய விண்ணப்பம் ஏற்கப்பட்டது. உங்களை அன்புடன் வரவேற்கிறோம். உங்கள் உறுப்பினர் அட்டை: ${link} - மாணவர் அணி`,
    },
  };
}

/**
 * A grievance's answer (issue 21): its reference, then the answer page's link, whitelisted
 * as a dynamic URL up to its `?` (the ticket's id and the MAC are two variables).
 */
function grievanceAnswerSmsTemplates(siteUrl: string) {
  const link = `${siteUrl}${SMS_GRIEVANCE_PAGE_PREFIX}{#var#}.{#var#}`;
  return {
    en: {
      templateId: '1207000000000000501',
      text: `The Students' Wing has answered your grievance {#var#}. Read the answer: ${link} - Students' Wing`,
    },
    ta: {
      templateId: '1207000000000000502',
      text: `உங்கள் குறை {#var#}-க்கு மாணவர் அணி பதிலளித்துள்ளது. பதிலைப் படிக்க: ${link} - மாணவர் அணி`,
    },
  };
}

/** The site the local stack serves by default (PORT's default): the links of the messages. */
export const defaultLocalSiteUrl = 'http://localhost:5173';

/**
 * The SMS side as a stage registers it under India's DLT rules: sender id (header),
 * configuration set, principal entity and content templates. Fake numbers, realistic
 * shape: DLT ids are 19 digits, each `{#var#}` holds up to 30 characters, and the text
 * the functions send must match its template to the character.
 * The DLT registration of a local stack serving the site at `siteUrl`.
 */
export const localSmsFor = (siteUrl: string) => ({
  originationIdentity: 'TNSWNG',
  configurationSet: 'membership-local-sms',
  entityId: '1201000000000012345',
  /** DLT's CTA whitelist: the card link and a grievance answer's link as dynamic URLs (their fixed parts, ending with `?`). */
  whitelistedUrls: [`${siteUrl}${CARD_PAGE_PATH}?`, `${siteUrl}${GRIEVANCE_PAGE_PATH}?`],
  templates: {
    otp: {
      en: {
        templateId: '1207000000000000101',
        text: "{#var#} is your OTP to verify your mobile number for Students' Wing membership. It is valid for 5 minutes. Do not share it with anyone. - Students' Wing",
      },
      ta: {
        templateId: '1207000000000000102',
        text: 'மாணவர் அணி உறுப்பினர் சேர்க்கைக்காக உங்கள் கைபேசி எண்ணை உறுதிசெய்வதற்கான OTP {#var#}. இது 5 நிமிடங்களுக்குச் செல்லுபடியாகும். இதை யாருடனும் பகிர வேண்டாம். - மாணவர் அணி',
      },
    },
    approved: approvedSmsTemplates(siteUrl),
    rejected: {
      en: {
        templateId: '1207000000000000301',
        text: "Your application to join the Students' Wing has been rejected. For questions, contact your district coordinator. - Students' Wing",
      },
      ta: {
        templateId: '1207000000000000302',
        text: 'மாணவர் அணியில் சேர நீங்கள் அனுப்பிய விண்ணப்பம் நிராகரிக்கப்பட்டது. சந்தேகங்களுக்கு உங்கள் மாவட்ட ஒருங்கிணைப்பாளரைத் தொடர்புகொள்ளுங்கள். - மாணவர் அணி',
      },
    },
    // The confirmation of an applicant's own withdrawal (issue 21): service-implicit, no variable.
    withdrawn: {
      en: {
        templateId: '1207000000000000401',
        text: "Your application to join the Students' Wing has been withdrawn, as you asked, and your details have been erased. You may apply again at any time. - Students' Wing",
      },
      ta: {
        templateId: '1207000000000000402',
        text: 'நீங்கள் கேட்டுக்கொண்டபடி, மாணவர் அணியில் சேர நீங்கள் அனுப்பிய விண்ணப்பம் திரும்பப் பெறப்பட்டது; உங்கள் விவரங்கள் நிரந்தரமாக அழிக்கப்பட்டன. எப்போது வேண்டுமானாலும் மீண்டும் விண்ணப்பிக்கலாம். - மாணவர் அணி',
      },
    },
    grievanceAnswer: grievanceAnswerSmsTemplates(siteUrl),
  },
});

export const localSms = localSmsFor(defaultLocalSiteUrl);

/** The welcome template in each page language (WHATSAPP_WELCOME_TEMPLATES): one name, two languages, as in WhatsApp Manager. */
export const localWhatsAppWelcomeTemplates = {
  en: { name: 'welcome_message', language: 'en_US' },
  ta: { name: 'welcome_message', language: 'ta' },
} as const;

/** The WhatsApp utility templates of the decision notices (WHATSAPP_DECISION_TEMPLATES). */
export const localWhatsAppDecisionTemplates = {
  // Its dynamic URL button is `<site>/card#{{1}}` (the sandbox's `approvedButtonUrl`).
  approved: { name: 'decision_approved', languages: { en: 'en', ta: 'ta' } },
  rejected: { name: 'decision_rejected', languages: { en: 'en', ta: 'ta' } },
} as const;

/** The WhatsApp utility template of the withdrawal's confirmation (WHATSAPP_WITHDRAWAL_TEMPLATE): no variable. */
export const localWhatsAppWithdrawalTemplate = {
  name: 'withdrawal_confirmed',
  languages: { en: 'en', ta: 'ta' },
} as const;

/** A grievance answer's WhatsApp utility template (WHATSAPP_GRIEVANCE_TEMPLATE): the reference and the answer. */
export const localWhatsAppGrievanceTemplate = {
  name: 'grievance_answer',
  languages: { en: 'en', ta: 'ta' },
} as const;
