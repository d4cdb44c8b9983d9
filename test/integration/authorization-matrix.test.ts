import { createPublicKey, type JsonWebKey, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../lib/api-routes';
import type { ApiAdapter } from '../../local/api-adapter';
import { testStaff } from '../support/staff';
import { signIn, signWithForeignKey, signWithLocalPoolKey } from '../support/tokens';
import { startTierApi } from '../support/tier-api';

// Every staff route of the route table × every kind of caller, through the local adapter
// (which verifies tokens as API Gateway's JWT authorizer does) and the real handlers:
// forged, stale and foreign tokens are refused before any function runs (401), a user in
// no staff group and a viewer on an admin-only route by the handler (403), and viewers
// and admins get the route's own answer. A route added to the table without a request
// below fails the test.
let api: ApiAdapter;
const pool = inject('pool');
const cognitoEndpoint = inject('cognitoEndpoint');

/** A request each route answers with `ok` when the caller may use it (ids that name nothing). */
const requests: Record<string, { path: string; body?: unknown; ok: number }> = {
  'GET /api/admin/me': { path: '/api/admin/me', ok: 200 },
  'POST /api/admin/applications/search': { path: '/api/admin/applications/search', body: { pageSize: 10 }, ok: 200 },
  'GET /api/admin/applications/{id}': { path: '/api/admin/applications/matrix-none', ok: 404 },
  'POST /api/admin/applications/status': {
    path: '/api/admin/applications/status',
    body: { ids: ['matrix-none'], status: 'approved' },
    ok: 200,
  },
  'DELETE /api/admin/applications/{id}': { path: '/api/admin/applications/matrix-none', ok: 404 },
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

type Expect = 'unauthorized' | 'forbidden' | 'allowed' | 'admin-only';
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
  api = await startTierApi();
});
afterAll(() => api.close());

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

  it.each(cells)('$caller', async ({ token, expect: cell }) => {
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
    const refused = cell === 'forbidden' || (cell === 'admin-only' && route.adminOnly);
    if (cell === 'unauthorized') {
      // The authorizer's answer: no function ran.
      expect({ status: response.status, body }).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    } else if (refused) {
      expect({ status: response.status, body }).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    } else {
      expect(response.status, JSON.stringify(body)).toBe(request!.ok);
    }
  });
});
