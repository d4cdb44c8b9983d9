import { createPublicKey, type JsonWebKey, randomUUID } from 'node:crypto';
import { GetCommand } from '../../lambdas/lib/db';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import type { ApiAdapter } from '../../local/api-adapter';
import type { ReportRowsResponse, ReportSummary, StatsResponse } from '../../rules/report';
import type { ListResponse, StatusChangeResponse } from '../../rules/staff-api';
import { applicationItem, DAY_MS, istDayOf, istMidnight, putAll } from '../support/rollups';
import { testStaff } from '../support/staff';
import { signIn, signWithForeignKey, signWithLocalPoolKey } from '../support/tokens';
import { startScopeTier, type ScopeTier } from '../support/scope-tier';

// Every staff route of the route table × every kind of caller, through the local adapter
// (which verifies tokens as API Gateway's JWT authorizer does) and the real handlers:
// forged, stale and foreign tokens are refused before any function runs (401), a user in
// no staff group and a viewer on an admin-only route by the handler (403), and viewers
// and admins get the route's own answer. A route added to the table without a request
// below fails the test. District scope (issue 17): a coordinator and a viewer of Chennai
// get every route's answer within Chennai only (below the matrix).
let api: ApiAdapter;
let tier: ScopeTier;
const pool = inject('pool');
const cognitoEndpoint = inject('cognitoEndpoint');

/** A request each route answers with `ok` when the caller may use it (ids that name nothing). */
const requests: Record<string, { path: string; body?: unknown; ok: number; scopedOk?: number }> = {
  'GET /api/admin/me': { path: '/api/admin/me', ok: 200 },
  'POST /api/admin/applications/search': { path: '/api/admin/applications/search', body: { pageSize: 10 }, ok: 200 },
  'GET /api/admin/applications/{id}': { path: '/api/admin/applications/matrix-none', ok: 404 },
  'POST /api/admin/applications/status': {
    path: '/api/admin/applications/status',
    body: { ids: ['matrix-none'], status: 'approved' },
    ok: 200,
    // A scoped caller's selection with an id that names nothing is refused whole.
    scopedOk: 404,
  },
  'DELETE /api/admin/applications/{id}': { path: '/api/admin/applications/matrix-none', ok: 404 },
  // The member's card (issue 20): an id that names nothing has no card to revoke.
  'POST /api/admin/applications/{id}/card': {
    path: '/api/admin/applications/matrix-none/card',
    body: { action: 'revoke' },
    ok: 404,
  },
  'POST /api/admin/exports': { path: '/api/admin/exports', body: { filters: { status: 'approved' } }, ok: 201 },
  'POST /api/admin/exports/{id}/complete': { path: `/api/admin/exports/${randomUUID()}/complete`, body: {}, ok: 404 },
  'GET /api/admin/stats': { path: '/api/admin/stats', ok: 200 },
  'GET /api/admin/reports/summary': { path: '/api/admin/reports/summary?from=2026-01-01&to=2026-01-31', ok: 200 },
  'GET /api/admin/reports/rows': { path: '/api/admin/reports/rows?from=2026-01-01&to=2026-01-31&limit=5', ok: 200 },
  'GET /api/admin/staff': { path: '/api/admin/staff', ok: 200 },
  // An invitation the schema refuses: the matrix makes no user.
  'POST /api/admin/staff': {
    path: '/api/admin/staff',
    body: { email: 'matrix@example.org', role: 'coordinator' },
    ok: 400,
  },
  'GET /api/admin/campaigns': { path: '/api/admin/campaigns', ok: 200 },
  // A campaign the schema refuses (no names): the matrix makes none.
  'POST /api/admin/campaigns': {
    path: '/api/admin/campaigns',
    body: { kind: 'event', district: 'Chennai', starts_on: '2026-01-01', ends_on: '2026-01-31' },
    ok: 400,
  },
  'PATCH /api/admin/campaigns/{id}': {
    path: `/api/admin/campaigns/${randomUUID()}`,
    body: { status: 'paused' },
    ok: 404,
  },
  // Grievances (issue 21): the list, and an answer and a closing of a ticket that does not exist.
  'GET /api/admin/grievances': { path: '/api/admin/grievances', ok: 200 },
  'POST /api/admin/grievances/{id}/answer': {
    path: '/api/admin/grievances/matrixnonexxxxx/answer',
    body: { answer: 'An answer.' },
    ok: 404,
  },
  'POST /api/admin/grievances/{id}/close': { path: '/api/admin/grievances/matrixnonexxxxx/close', body: {}, ok: 404 },
  ...Object.fromEntries(
    ['assign', 'disable', 'enable', 'reset-mfa'].map((action) => [
      `POST /api/admin/staff/{sub}/${action}`,
      { path: `/api/admin/staff/${randomUUID()}/${action}`, body: { role: 'viewer' }, ok: 404 },
    ]),
  ),
};

const now = () => Math.floor(Date.now() / 1000);
/** What a real id token of the pool says about an admin. */
const adminClaims = () => ({
  sub: randomUUID(),
  'cognito:groups': ['admin'],
  email: 'matrix@example.org',
  token_use: 'id',
  iss: pool.issuer,
  aud: pool.clientId,
  iat: now(),
  exp: now() + 600,
});
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token: `alg: none`, no signature at all. */
const unsigned = () => `${base64url({ alg: 'none', typ: 'JWT', kid: 'CognitoLocal' })}.${base64url(adminClaims())}.`;

/** The algorithm confusion: HS256 with the pool's public key (its PEM, as a verifier might load it) as the secret. */
async function hmacWithPublicKey(): Promise<string> {
  const response = await fetch(`${pool.issuer}/.well-known/jwks.json`);
  const { keys } = (await response.json()) as { keys: JsonWebKey[] };
  const pem = createPublicKey({ key: keys[0]!, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
  return new SignJWT(adminClaims())
    .setProtectedHeader({ alg: 'HS256', kid: 'CognitoLocal' })
    .sign(new TextEncoder().encode(pem.toString()));
}

type Expect = 'unauthorized' | 'forbidden' | 'allowed' | 'admin-only' | 'coordinator';
const cells: { caller: string; token: () => Promise<string | undefined>; expect: Expect }[] = [
  { caller: 'no token', token: () => Promise.resolve(undefined), expect: 'unauthorized' },
  { caller: 'garbage', token: () => Promise.resolve('not.a.token'), expect: 'unauthorized' },
  { caller: 'another key', token: () => signWithForeignKey(adminClaims()), expect: 'unauthorized' },
  {
    caller: 'expired',
    token: () => signWithLocalPoolKey({ ...adminClaims(), iat: now() - 7200, exp: now() - 3600 }),
    expect: 'unauthorized',
  },
  { caller: 'alg: none', token: () => Promise.resolve(unsigned()), expect: 'unauthorized' },
  { caller: 'HS256 signed with the public key', token: hmacWithPublicKey, expect: 'unauthorized' },
  {
    caller: 'wrong issuer',
    token: () => signWithLocalPoolKey({ ...adminClaims(), iss: `${cognitoEndpoint}/local_other` }),
    expect: 'unauthorized',
  },
  {
    caller: 'wrong audience',
    token: () => signWithLocalPoolKey({ ...adminClaims(), aud: 'another-client' }),
    expect: 'unauthorized',
  },
  { caller: 'no group', token: () => signIn(cognitoEndpoint, pool.clientId, testStaff.nobody), expect: 'forbidden' },
  { caller: 'viewer', token: () => signIn(cognitoEndpoint, pool.clientId, testStaff.viewer), expect: 'admin-only' },
  { caller: 'admin', token: () => signIn(cognitoEndpoint, pool.clientId, testStaff.admin), expect: 'allowed' },
  {
    caller: 'coordinator of Chennai',
    token: () => signIn(cognitoEndpoint, pool.clientId, testStaff.coordinator),
    expect: 'coordinator',
  },
  {
    caller: 'viewer of Chennai',
    token: () => signIn(cognitoEndpoint, pool.clientId, testStaff.viewerOfChennai),
    expect: 'admin-only',
  },
  {
    // An access token carries no email and no `aud`, only `client_id`: still the admin.
    caller: 'admin, access token',
    token: () => {
      const { sub, iss, iat, exp } = adminClaims();
      const groups = ['admin'];
      return signWithLocalPoolKey({
        sub,
        iss,
        iat,
        exp,
        'cognito:groups': groups,
        token_use: 'access',
        client_id: pool.clientId,
      });
    },
    expect: 'allowed',
  },
];

beforeAll(async () => {
  tier = await startScopeTier('matrix');
  api = tier.api;
});
afterAll(() => tier.stop());

/**
 * A coordinator reviews (status changes), makes and pauses campaigns, and answers and closes
 * grievances in their districts, but may not erase or manage staff.
 */
const reviewRoutes = [
  'POST /api/admin/applications/status',
  'POST /api/admin/campaigns',
  'PATCH /api/admin/campaigns/{id}',
  'POST /api/admin/grievances/{id}/answer',
  'POST /api/admin/grievances/{id}/close',
];
const scopedCallers = new Set(['coordinator of Chennai', 'viewer of Chennai']);

const staffRoutes = routes.filter((r) => r.access === 'staff');

it('covers every staff route of the route table, each under /api/admin/', () => {
  expect(staffRoutes.length).toBeGreaterThan(0);
  for (const route of staffRoutes) expect(route.path.startsWith('/api/admin/'), route.path).toBe(true);
  expect(Object.keys(requests).sort()).toEqual(staffRoutes.map((r) => `${r.method} ${r.path}`).sort());
  // Every route under /api/admin is a staff route: none is public by mistake.
  expect(routes.filter((r) => r.path.startsWith('/api/admin') && r.access !== 'staff')).toEqual([]);
});

describe.each(staffRoutes)('$method $path', (route) => {
  const request = requests[`${route.method} ${route.path}`];

  it.each(cells)('$caller', async ({ caller, token, expect: cell }) => {
    expect(request, 'a request for this route').toBeDefined();
    const bearer = await token();
    const response = await fetch(`${api.url}${request!.path}`, {
      method: route.method,
      headers: {
        'content-type': 'application/json',
        ...(bearer !== undefined && { authorization: `Bearer ${bearer}` }),
      },
      ...(request!.body !== undefined && { body: JSON.stringify(request!.body) }),
    });
    const body = (await response.json()) as unknown;
    const key = `${route.method} ${route.path}`;
    const refused =
      cell === 'forbidden' ||
      (cell === 'admin-only' && route.adminOnly) ||
      (cell === 'coordinator' && route.adminOnly && !reviewRoutes.includes(key));
    if (cell === 'unauthorized') {
      // The authorizer's answer: no function ran.
      expect({ status: response.status, body }).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    } else if (refused) {
      expect({ status: response.status, body }).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    } else {
      const ok = scopedCallers.has(caller) ? (request!.scopedOk ?? request!.ok) : request!.ok;
      expect(response.status, JSON.stringify(body)).toBe(ok);
    }
  });
});

// ---------------------------------------------------------------------------
// District scope (issue 17): over every staff route, a Madurai application (and one of
// unknown district) is refused or absent for a coordinator and a viewer of Chennai, and
// the Chennai ones are there; the admin sees them all.

const day = istDayOf(Date.now() - DAY_MS);
const at = (hour: number) => new Date(istMidnight(day) + hour * 3_600_000).toISOString();
const seeded = [
  applicationItem({
    id: 'scope-chennai-1',
    submitted_at: at(9),
    application_status: 'pending',
    revenue_district: 'Chennai',
  }),
  applicationItem({
    id: 'scope-chennai-2',
    submitted_at: at(10),
    application_status: 'pending',
    revenue_district: 'Chennai',
  }),
  applicationItem({
    id: 'scope-madurai-1',
    submitted_at: at(11),
    application_status: 'pending',
    revenue_district: 'Madurai',
  }),
  applicationItem({
    id: 'scope-madurai-2',
    submitted_at: at(12),
    application_status: 'pending',
    revenue_district: 'Madurai',
  }),
  applicationItem({ id: 'scope-unknown-1', submitted_at: at(13), application_status: 'pending' }),
];
const chennai = ['scope-chennai-1', 'scope-chennai-2'];
const everyId = seeded.map((i) => String(i.id));

describe('district scope on every staff route', () => {
  const tokens: Record<'admin' | 'coordinator' | 'viewer', string> = { admin: '', coordinator: '', viewer: '' };
  const call = <T = Record<string, unknown>>(who: keyof typeof tokens, method: string, path: string, body?: unknown) =>
    tier.call<T>(tokens[who], method, path, body);
  const statusOf = async (id: string) =>
    (await tier.db.send(new GetCommand({ TableName: tier.names.applications, Key: { pk: `APP#${id}` } }))).Item
      ?.application_status as unknown;
  const idsOf = (body: { items: { id: string }[] }) => body.items.map((i) => i.id).sort();
  const reportQuery = `from=${day}&to=${day}`;

  beforeAll(async () => {
    await putAll(tier.db, tier.names.applications, seeded);
    await tier.poller.drain(60_000);
    tokens.admin = await signIn(cognitoEndpoint, pool.clientId, testStaff.admin);
    tokens.coordinator = await signIn(cognitoEndpoint, pool.clientId, testStaff.coordinator);
    tokens.viewer = await signIn(cognitoEndpoint, pool.clientId, testStaff.viewerOfChennai);
  }, 90_000);

  it('the admin sees every application, so the scoped answers below are the scope at work', async () => {
    const list = await call<ListResponse>('admin', 'POST', '/api/admin/applications/search', { pageSize: 100 });
    expect(idsOf(list.body)).toEqual(expect.arrayContaining(everyId));
    const report = await call<ReportSummary>('admin', 'GET', `/api/admin/reports/summary?${reportQuery}`);
    expect(report.body.total).toBe(5);
  });

  it.each(['coordinator', 'viewer'] as const)(
    'a %s of Chennai: the detail of another district is not found',
    async (who) => {
      const missing = await call(who, 'GET', '/api/admin/applications/scope-none');
      expect(missing.status).toBe(404);
      for (const id of ['scope-madurai-1', 'scope-unknown-1']) {
        const other = await call(who, 'GET', `/api/admin/applications/${id}`);
        // Exactly the missing id's answer: the id tells nothing.
        expect({ status: other.status, body: other.body }, id).toEqual({ status: 404, body: missing.body });
      }
      const own = await call<{ application: { id: string } }>(who, 'GET', '/api/admin/applications/scope-chennai-1');
      expect({ status: own.status, id: own.body.application.id }).toEqual({ status: 200, id: 'scope-chennai-1' });
    },
  );

  it.each(['coordinator', 'viewer'] as const)(
    'a %s of Chennai: list, search, stats and reports hold Chennai only',
    async (who) => {
      const list = await call<ListResponse>(who, 'POST', '/api/admin/applications/search', { pageSize: 100 });
      expect({ ids: idsOf(list.body), total: list.body.total }).toEqual({ ids: chennai, total: 2 });
      const madurai = await call<ListResponse>(who, 'POST', '/api/admin/applications/search', {
        filters: { district: 'Madurai' },
      });
      expect({ status: madurai.status, items: madurai.body.items, total: madurai.body.total }).toEqual({
        status: 200,
        items: [],
        total: 0,
      });
      for (const q of ['applicant scope-madurai-1', 'scope-']) {
        const search = await call<ListResponse>(who, 'POST', '/api/admin/applications/search', { filters: { q } });
        expect(idsOf(search.body), q).toEqual(chennai.filter((id) => id.includes(q.replace('applicant ', ''))));
      }
      const stats = await call<StatsResponse>(who, 'GET', '/api/admin/stats');
      expect(stats.body).toMatchObject({ total: 2 });
      const report = await call<ReportSummary>(who, 'GET', `/api/admin/reports/summary?${reportQuery}`);
      expect({ total: report.body.total, byDistrict: report.body.byDistrict }).toEqual({
        total: 2,
        byDistrict: [{ district: 'Chennai', count: 2 }],
      });
      const maduraiReport = await call<ReportSummary>(
        who,
        'GET',
        `/api/admin/reports/summary?${reportQuery}&district=Madurai`,
      );
      expect({
        status: maduraiReport.status,
        total: maduraiReport.body.total,
        range: maduraiReport.body.range,
      }).toEqual({
        status: 200,
        total: 0,
        range: { from: day, to: day },
      });
      const rows = await call<ReportRowsResponse>(who, 'GET', `/api/admin/reports/rows?${reportQuery}&limit=50`);
      expect({ ids: idsOf(rows.body), total: rows.body.total }).toEqual({ ids: chennai, total: 2 });
      const maduraiRows = await call<ReportRowsResponse>(
        who,
        'GET',
        `/api/admin/reports/rows?${reportQuery}&district=Madurai,Chennai`,
      );
      expect(idsOf(maduraiRows.body)).toEqual(chennai);
    },
  );

  it.each(['coordinator', 'viewer'] as const)(
    'a %s of Chennai exports Chennai rows only, the scope on the record',
    async (who) => {
      for (const request of [{ filters: {} }, { report: { from: day, to: day } }]) {
        const started = await call<{ exportId: string; total: number; scope: unknown }>(
          who,
          'POST',
          '/api/admin/exports',
          request,
        );
        expect({ status: started.status, total: started.body.total, scope: started.body.scope }).toEqual({
          status: 201,
          total: 2,
          scope: ['chennai'],
        });
        const { exportId } = started.body;
        const page =
          'filters' in request
            ? await call<ListResponse>(who, 'POST', '/api/admin/applications/search', {
                ...request,
                pageSize: 1000,
                exportId,
              })
            : await call<ReportRowsResponse>(
                who,
                'GET',
                `/api/admin/reports/rows?${reportQuery}&limit=500&exportId=${exportId}`,
              );
        expect(idsOf(page.body)).toEqual(chennai);
        const completed = await call<{ rows: number }>(who, 'POST', `/api/admin/exports/${exportId}/complete`, {});
        expect(completed.body.rows).toBe(2);
        const entry = await tier.db.send(
          new GetCommand({ TableName: inject('tableNames').audit, Key: { pk: 'EXPORTS', sk: exportId } }),
        );
        expect(entry.Item?.districts).toEqual(['chennai']);
      }
    },
  );

  it("a coordinator's status change with another district's id changes nothing, even of their own", async () => {
    const one = await call('coordinator', 'POST', '/api/admin/applications/status', {
      ids: ['scope-madurai-1'],
      status: 'approved',
    });
    expect({ status: one.status, body: one.body }).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    const bulk = await call('coordinator', 'POST', '/api/admin/applications/status', {
      ids: ['scope-chennai-1', 'scope-madurai-2', 'scope-chennai-2'],
      status: 'rejected',
    });
    expect({ status: bulk.status, body: bulk.body }).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    const unknown = await call('coordinator', 'POST', '/api/admin/applications/status', {
      ids: ['scope-chennai-1', 'scope-unknown-1'],
      status: 'rejected',
    });
    expect(unknown.status).toBe(404);
    for (const id of everyId) expect(await statusOf(id), id).toBe('pending');
  });

  it('a coordinator may not erase, in their district or not; a viewer may not change a status', async () => {
    for (const id of ['scope-madurai-1', 'scope-chennai-1']) {
      const erased = await call('coordinator', 'DELETE', `/api/admin/applications/${id}`);
      expect({ status: erased.status, body: erased.body }).toMatchObject({
        status: 403,
        body: { error: { code: 'FORBIDDEN' } },
      });
      expect(await statusOf(id)).toBe('pending');
    }
    const viewer = await call('viewer', 'POST', '/api/admin/applications/status', {
      ids: ['scope-chennai-1'],
      status: 'approved',
    });
    expect({ status: viewer.status, body: viewer.body }).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    expect(await statusOf('scope-chennai-1')).toBe('pending');
  });

  it("a coordinator's selection within Chennai changes", async () => {
    const changed = await call<StatusChangeResponse>('coordinator', 'POST', '/api/admin/applications/status', {
      ids: chennai,
      status: 'under_review',
    });
    expect({ status: changed.status, changed: [...changed.body.changed].sort() }).toEqual({
      status: 200,
      changed: chennai,
    });
    for (const id of chennai) expect(await statusOf(id)).toBe('under_review');
    expect(await statusOf('scope-madurai-1')).toBe('pending');
  });
});
