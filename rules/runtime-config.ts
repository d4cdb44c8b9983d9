import * as v from 'valibot';

// The SPA's runtime configuration: written as /config.json next to the bundle at
// deploy (and served by the local stack), fetched before the app starts, so one
// build serves every stage. valibot (see rules/api.ts): the public page checks it
// before its first paint.
const text = () => v.pipe(v.string(), v.minLength(1));

const runtimeConfigSchema = v.object({
  stage: text(),
  apiBasePath: v.pipe(v.string(), v.startsWith('/')),
  defaultLanguage: v.picklist(['en', 'ta']),
  captcha: v.object({
    siteKey: text(),
    /** Script to load; in local mode a same-origin stand-in. */
    scriptUrl: text(),
  }),
  cognito: v.object({
    region: text(),
    userPoolId: text(),
    userPoolClientId: text(),
    /** Set only in local mode, where cognito-local stands in for Cognito. */
    endpoint: v.optional(v.string()),
  }),
  /**
   * What the notice (web/src/legal/) names that differs by stage (lib/stages.ts): who answers
   * for the wing's data, and after how many days a rejected application is erased.
   */
  dataNotice: v.object({
    contact: v.object({ name: text(), email: text(), phone: v.optional(text()) }),
    rejectedApplicationDays: v.number(),
  }),
});
export type RuntimeConfig = v.InferOutput<typeof runtimeConfigSchema>;

/** The configuration, checked; throws (with the failing paths) when it is not one. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  return v.parse(runtimeConfigSchema, input);
}
