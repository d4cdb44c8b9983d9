import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import type { ApiAdapter } from '../../local/api-adapter';
import { apiErrorSchema } from '../../rules/api';
import { errorMessages } from '../../rules/errors';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';
import { startTierApi } from '../support/tier-api';

// Whatever an admin's browser (or someone holding an admin's token) sends to a staff
// route, in the query, the body or the path, the answer is a success or a 4xx in the
// documented error shape with a code of the catalogue: never a 5xx. Seeded, so that a
// failure is replayed by the same run; bounded, at least 400 requests in all.
const SEED = 14_2026;
const RUNS_PER_ROUTE = 45;

let api: ApiAdapter;
let adminToken: string;
const pool = inject('pool');
let requests = 0;
/** The error codes the fuzz met, over every route. */
const seen = new Set<string>();

beforeAll(async () => {
  api = await startTierApi({ POWERTOOLS_LOG_LEVEL: 'ERROR' });
  adminToken = await signIn(inject('cognitoEndpoint'), pool.clientId, testStaff.admin);
});
afterAll(() => api.close());

const staffRoutes = routes.filter((r) => r.access === 'staff');

/** Text as a hostile client writes it: any code point, controls, lone surrogates, raw percent signs. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '%', '%ZZ', '%E0%A4', '\u0000', '\ud800', '‮', '2026-02-30', '9999-12-31', 'null', '[]', 'x'.repeat(3000)),
);
const day = fc.oneof(fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), text);
const status = fc.oneof(fc.constantFrom('pending', 'under_review', 'approved', 'rejected', 'pending,approved'), text);
const district = fc.oneof(fc.constantFrom('Chennai', 'Madurai,Salem', 'Unknown', 'chennai'), text);
const count = fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.constantFrom(10, 20, 50, 100, 1000), text);
const cursor = fc.oneof(
  fc.base64String({ maxLength: 300 }),
  fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value)).toString('base64url')),
  fc
    .record({ pk: text, submitted_sort: text, list_pk: fc.constantFrom('APP', ''), v: fc.constant(1), after: text, total: count })
    .map((key) => Buffer.from(JSON.stringify(key)).toString('base64url')),
  text,
);
const filters = fc.record({ q: text, status, district, from: day, to: day }, { requiredKeys: [] });

/** A query string built by hand: known and unknown keys, repeated keys, raw and encoded values. */
const query = (known: readonly string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...known, 'q', 'exportId'), fc.string({ maxLength: 8 })),
        fc.oneof(day, status, district, count.map(String), cursor, fc.uuid(), text),
        fc.boolean(),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => pairs.map(([k, value, raw]) => `${encodeURIComponent(k)}=${raw ? value : encodeURIComponent(value)}`).join('&'));

const bodyFor: Record<string, fc.Arbitrary<unknown>> = {
  'POST /api/admin/applications/search': fc.record(
    { filters: fc.oneof(filters, fc.anything()), pageSize: count, cursor, exportId: fc.oneof(fc.uuid(), text) },
    { requiredKeys: [] },
  ),
  'POST /api/admin/applications/status': fc.record(
    {
      // Ids that name no application of anyone's: the fuzz changes nothing it did not make.
      ids: fc.oneof(fc.array(text.map((id) => `fuzz-${id}`), { maxLength: 120 }), fc.anything()),
      status,
      note: fc.oneof(text, fc.integer()),
    },
    { requiredKeys: [] },
  ),
  'POST /api/admin/exports': fc.oneof(
    fc.record({ filters: fc.oneof(filters, fc.anything()) }, { requiredKeys: [] }),
    fc.record({ report: fc.record({ from: day, to: day, status: fc.oneof(status, fc.array(status)), district }, { requiredKeys: [] }) }),
  ),
  'POST /api/admin/exports/{id}/complete': fc.record({ rows: count }, { requiredKeys: [] }),
};

const body = (key: string) =>
  fc.oneof(
    (bodyFor[key] ?? fc.anything()).map((value) => JSON.stringify(value)),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constantFrom('', '{', 'null', '[]', '"x"', '{"filters":', 'x'.repeat(20_000)),
  );

/** A path id as a hostile client sends it: encoded, raw (a malformed `%ZZ` included), or long. */
const pathId = fc.oneof(
  text.map((id) => encodeURIComponent(`fuzz-${id}`)),
  fc.constantFrom('%ZZ', '%', '..', '%2e%2e', 'a%00b', 'x'.repeat(300)),
  fc.uuid(),
);

describe.each(staffRoutes)('fuzzed $method $path as an admin', (route) => {
  const key = `${route.method} ${route.path}`;
  it('never answers 5xx, and refuses bad input with a code of the catalogue', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(pathId, query(route.query ?? []), body(key), async (id, search, payload) => {
        const path = route.path.replace(/\{\w+\}/g, id);
        const response = await fetch(`${api.url}${path}${route.method === 'GET' ? `?${search}` : ''}`, {
          method: route.method,
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          ...(route.method !== 'GET' && route.method !== 'DELETE' && { body: payload }),
        });
        requests++;
        const answer = await response.text();
        expect(response.status, `${key} ${path} ${answer}`).toBeLessThan(500);
        statuses.add(response.status);
        if (response.status < 400) return;
        const parsed: unknown = JSON.parse(answer);
        // API Gateway's own answers, before any function runs: a malformed path (`%ZZ`), or
        // one that names no route once normalised (`..`).
        if (['{"message":"Bad Request"}', '{"message":"Not Found"}'].includes(JSON.stringify(parsed))) return;
        const error = v.parse(apiErrorSchema, parsed).error;
        expect(Object.keys(errorMessages), answer).toContain(error.code);
        seen.add(error.code);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
    expect([...statuses].every((s) => s < 500)).toBe(true);
  }, 180_000);
});

it('sent at least 400 fuzzed staff requests, and bad input met its field errors', () => {
  expect(requests).toBeGreaterThanOrEqual(400);
  expect([...seen]).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'NOT_FOUND']));
});
