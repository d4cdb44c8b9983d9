import { z } from 'zod';

// Shapes exchanged between the SPA and the API, validated on both sides.
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  stage: z.string(),
  database: z.literal('ok'),
  time: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    retryAfterSeconds: z.number().optional(),
    attemptsLeft: z.number().optional(),
    providerCode: z.number().optional(),
  }),
});
