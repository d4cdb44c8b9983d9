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
});
export type HealthResponse = v.InferOutput<typeof healthResponseSchema>;

export const apiErrorSchema = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    fields: v.optional(v.record(v.string(), v.string())),
    retryAfterSeconds: v.optional(v.number()),
    attemptsLeft: v.optional(v.number()),
    providerCode: v.optional(v.number()),
  }),
});

export const otpRequestResponseSchema = v.object({
  sentTo: v.string(),
  expiresInSeconds: v.number(),
  resendAfterSeconds: v.number(),
});
export type OtpRequestResponse = v.InferOutput<typeof otpRequestResponseSchema>;

export const otpVerifyResponseSchema = v.object({
  verificationToken: v.string(),
  expiresAt: v.string(),
});
export type OtpVerifyResponse = v.InferOutput<typeof otpVerifyResponseSchema>;

export const submitResponseSchema = v.object({ id: v.string() });
export type SubmitResponse = v.InferOutput<typeof submitResponseSchema>;
