import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import { metaSignature } from '../../lambdas/lib/webhook-signature';
import { localSecrets } from '../../local/config';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import * as v from 'valibot';
import { apiErrorSchema } from '../../rules/api';
import { errorMessages } from '../../rules/errors';
import { sampleApplication } from '../support/public-flow';

// Whatever arrives in a public request body, the answer is a 4xx in the documented
// error shape (or a success), never a 5xx.
let stack: LocalStack;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  stack = await startLocalStack(testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' }));
}, 60_000);
afterAll(() => stack?.stop());

const mobile = fc.oneof(
  fc.stringMatching(/^[6-9]\d{9}$/),
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.stringMatching(/^\d{0,14}$/),
);
const nearValid = {
  '/api/otp/request': fc.record(
    { mobile, captchaToken: fc.oneof(fc.string(), fc.constant('dev-fail'), fc.integer()) },
    { requiredKeys: [] },
  ),
  '/api/otp/status': fc.record(
    { mobile, handle: fc.oneof(fc.base64String({ maxLength: 200 }), fc.string(), fc.integer(), fc.constant(null)) },
    { requiredKeys: [] },
  ),
  // Meta's status callback shape; the test signs half of them with the local app secret, so the
  // parser behind the signature check is fuzzed too.
  '/api/whatsapp/webhook': fc.record(
    {
      object: fc.oneof(fc.constant('whatsapp_business_account'), fc.string()),
      entry: fc.oneof(
        fc.anything(),
        fc.array(
          fc.record({
            changes: fc.array(
              fc.record({
                value: fc.record({
                  statuses: fc.array(
                    fc.record(
                      {
                        id: fc.oneof(fc.string(), fc.integer()),
                        status: fc.oneof(fc.constantFrom('sent', 'delivered', 'read', 'failed'), fc.string()),
                        timestamp: fc.oneof(fc.stringMatching(/^\d{10}$/), fc.string(), fc.integer()),
                        errors: fc.anything(),
                      },
                      { requiredKeys: [] },
                    ),
                  ),
                }),
              }),
            ),
          }),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  '/api/otp/verify': fc.record(
    {
      mobile,
      code: fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string(), fc.integer()),
      handle: fc.oneof(fc.string(), fc.stringMatching(/^v1\.[\w-]{10,80}$/), fc.integer()),
    },
    { requiredKeys: [] },
  ),
  '/api/applications': fc.record(
    {
      verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)),
      language: fc.oneof(fc.constantFrom('en', 'ta'), fc.string()),
      termsVersion: fc.string(),
      application: fc.oneof(
        fc.anything(),
        fc.record(Object.fromEntries(Object.keys(sampleApplication()).map((k) => [k, fc.anything()])), {
          requiredKeys: [],
        }),
        // Free text with controls, lone surrogates and bidi overrides among ordinary characters.
        fc
          .record({
            name: fc.string({ unit: 'binary', maxLength: 120 }),
            motivation: fc.string({ unit: 'binary', maxLength: 200 }),
          })
          .map((text) => ({ ...sampleApplication(), ...text })),
      ),
    },
    { requiredKeys: [] },
  ),
  // The member's card (issue 20): links and tokens well formed but not the stage's, and junk.
  '/api/card': fc.record(
    { link: fc.oneof(fc.string(), fc.stringMatching(/^[a-z2-9]{16}\.[\w-]{22}$/), fc.integer(), fc.constant(null)) },
    { requiredKeys: [] },
  ),
  '/api/card/mine': fc.record(
    { verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)) },
    { requiredKeys: [] },
  ),
  // "My application" and the withdrawal (issue 21): a forged or junk verification erases nothing.
  '/api/me': fc.record(
    { verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)) },
    { requiredKeys: [] },
  ),
  '/api/me/withdraw': fc.record(
    { verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)), extra: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  // The correction (issue 21): the form's fields, any other field and junk values, with a forged verification.
  '/api/me/correct': fc.record(
    {
      verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)),
      changes: fc.oneof(
        fc.record(
          {
            name: fc.oneof(fc.string(), fc.integer()),
            email: fc.oneof(fc.string(), fc.constant('')),
            revenue_district: fc.oneof(fc.constant('Salem'), fc.string()),
            assembly_constituency: fc.string(),
            date_of_birth: fc.string(),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
  // Grievances (issue 21): after a code, with a contact number behind the captcha, and the answer's link.
  '/api/me/grievances': fc.record(
    {
      verificationToken: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.constant(null)),
      text: fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 1200 }), fc.integer()),
      language: fc.oneof(fc.constantFrom('en', 'ta'), fc.string()),
    },
    { requiredKeys: [] },
  ),
  '/api/grievances': fc.record(
    {
      mobile: fc.oneof(fc.stringMatching(/^[6-9]\d{9}$/), fc.string(), fc.integer()),
      captchaToken: fc.oneof(fc.constant('dev.grievance.0.1'), fc.string(), fc.constant(null)),
      text: fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 1200 })),
      language: fc.oneof(fc.constantFrom('en', 'ta'), fc.string()),
    },
    { requiredKeys: [] },
  ),
  '/api/grievances/answer': fc.record(
    { link: fc.oneof(fc.string(), fc.stringMatching(/^[a-z2-9]{16}\.[\w-]{22}$/), fc.integer(), fc.constant(null)) },
    { requiredKeys: [] },
  ),
  '/api/card/status': fc.record(
    {
      token: fc.oneof(
        fc.string(),
        fc.stringMatching(/^[\w-]{40,200}\.[\w-]{86}$/),
        fc
          .jsonValue()
          .map((claims) => `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${'A'.repeat(86)}`),
        fc.integer(),
      ),
    },
    { requiredKeys: [] },
  ),
} as const;

const body = (path: keyof typeof nearValid) =>
  fc.oneof(
    nearValid[path].map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constantFrom('', '{', 'null', '[]', '"x"', '{"mobile":', 'x'.repeat(20_000)),
  );

const publicPostRoutes = routes.filter((r) => r.access === 'public' && r.method === 'POST');

describe.each(publicPostRoutes)('fuzzed body on $method $path', (route) => {
  it('never answers 5xx and always answers the documented error shape', async () => {
    expect(route.path in nearValid).toBe(true);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(body(route.path as keyof typeof nearValid), fc.boolean(), async (payload, sign) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (route.caller === 'provider' && sign) {
          headers['x-hub-signature-256'] = metaSignature(localSecrets.whatsappAppSecret, payload);
        }
        const response = await fetch(`${stack.apiUrl}${route.path}`, { method: 'POST', headers, body: payload });
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        if (response.status >= 400) {
          const parsed = v.parse(apiErrorSchema, JSON.parse(text));
          expect(Object.keys(errorMessages)).toContain(parsed.error.code);
          seen.add(parsed.error.code);
        }
      }),
      // Seeded: a failure names its case, and the next run tries the same ones.
      { numRuns: 1000, seed: 14_2026 },
    );
    expect(seen.size).toBeGreaterThan(0);
  }, 120_000);
});
