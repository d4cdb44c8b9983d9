import { z } from 'zod';

// The SPA's runtime configuration: written as /config.json next to the bundle at
// deploy (and served by the local stack), fetched before the app starts, so one
// build serves every stage.
export const runtimeConfigSchema = z.object({
  stage: z.string().min(1),
  apiBasePath: z.string().startsWith('/'),
  defaultLanguage: z.enum(['en', 'ta']),
  captcha: z.object({
    siteKey: z.string().min(1),
    /** Script to load; in local mode a same-origin stand-in. */
    scriptUrl: z.string().min(1),
  }),
  cognito: z.object({
    region: z.string().min(1),
    userPoolId: z.string().min(1),
    userPoolClientId: z.string().min(1),
    /** Set only in local mode, where cognito-local stands in for Cognito. */
    endpoint: z.string().optional(),
  }),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
