import * as v from 'valibot';

// Shapes exchanged between the SPA and the API, checked on both sides. Written with
// valibot, not zod: the public page checks them on its first view, where zod's core
// (about 14 KB gzip) does not fit the page's budget; valibot's functions tree-shake to
// what is used. Both implement Standard Schema, which the SPA's API client reads.
export const healthResponseSchema = v.object({
  status: v.literal('ok'),
  stage: v.string(),
  database: v.literal('ok'),
  time: v.string(),
  /**
   * For the operator: the settings and provider-secret fields still empty or placeholders
   * (`captcha.siteKey`, `secret:provider.recaptchaSecret`; lib/placeholders.ts). Names only.
   * Optional here: the visitor's page does not read it.
   */
  configuration: v.optional(v.object({ complete: v.boolean(), missing: v.array(v.string()) })),
});
export type HealthResponse = v.InferOutput<typeof healthResponseSchema>;

export const apiErrorSchema = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    fields: v.optional(v.record(v.string(), v.string())),
    retryAfterSeconds: v.optional(v.number()),
    attemptsLeft: v.optional(v.number()),
    smsAvailable: v.optional(v.boolean()),
    /**
     * ALREADY_REGISTERED from the code check: the number was proved, so the page gets the
     * verification all the same, for "Get my card" (POST /api/card/mine); submitting with
     * it still answers ALREADY_REGISTERED.
     */
    verificationToken: v.optional(v.string()),
    expiresAt: v.optional(v.string()),
  }),
});

/** The channels a code can go by. */
export const otpChannels = ['whatsapp', 'sms'] as const;
export type OtpChannel = (typeof otpChannels)[number];

/** A message's delivery as its provider reported it (rank order: accepted < sent < failed < delivered < read). */
export const deliveryStatuses = ['accepted', 'sent', 'failed', 'delivered', 'read'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const otpRequestResponseSchema = v.object({
  sentTo: v.string(),
  /** Where the code went: the page always says so. */
  channel: v.picklist(otpChannels),
  /** WhatsApp refused the send (or the stage's WhatsApp tier is full) and the code went by SMS instead. */
  fellBack: v.boolean(),
  /** For POST /api/otp/status (and a switch to SMS): bound to this number, short-lived, opaque. */
  deliveryHandle: v.string(),
  expiresInSeconds: v.number(),
  resendAfterSeconds: v.number(),
  /** WhatsApp sends on a stage with SMS: offer "send by SMS" when not delivered after this long; null: no offer. */
  smsOfferAfterSeconds: v.nullable(v.number()),
});
export type OtpRequestResponse = v.InferOutput<typeof otpRequestResponseSchema>;

/** The answer of POST /api/otp/status. */
export const otpStatusResponseSchema = v.object({
  channel: v.picklist(otpChannels),
  status: v.picklist(deliveryStatuses),
  /** The visitor may now ask for the code by SMS (WhatsApp failed, or the offer time has passed). */
  smsOffer: v.boolean(),
});
export type OtpStatusResponse = v.InferOutput<typeof otpStatusResponseSchema>;

export const otpVerifyResponseSchema = v.object({
  verificationToken: v.string(),
  expiresAt: v.string(),
});
export type OtpVerifyResponse = v.InferOutput<typeof otpVerifyResponseSchema>;

export const submitResponseSchema = v.object({ id: v.string() });
export type SubmitResponse = v.InferOutput<typeof submitResponseSchema>;
