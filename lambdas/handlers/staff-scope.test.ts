import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApplicationRepository } from '../adapters/applications';
import type { ReviewStore } from '../adapters/review';
import type { ScopedApplicationFilters } from '../lib/scoped-filters';

// Issue 17's scope in the handlers, with stand-in ports: what a coordinator of Chennai is
// answered, and which reads and writes never happen for them. Over real tables and tokens:
// test/integration/authorization-matrix.test.ts.

beforeAll(() => {
  vi.stubEnv('APP_MODE', 'local');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
});

const context = {} as Context;
const coordinator = { 'cognito:groups': '[coordinator]', 'custom:districts': 'chennai' };
const admin = { 'cognito:groups': '[admin]' };
function event(claims: Record<string, unknown>, request: { id?: string; body?: unknown } = {}) {
  return {
    version: '2.0',
    routeKey: 'test',
    rawPath: '/api/admin/test',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    isBase64Encoded: false,
    ...(request.id && { pathParameters: { id: request.id } }),
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    requestContext: {
      requestId: 'test',
      authorizer: { jwt: { claims: { sub: 'staff-1', email: 's@example.org', ...claims }, scopes: [] } },
    },
  } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
}
const parsed = (response: unknown) => {
  const { statusCode, body } = response as { statusCode: number; body: string };
  return { status: statusCode, body: JSON.parse(body) as Record<string, unknown> };
};

type StoredItem = NonNullable<Awaited<ReturnType<ApplicationRepository['get']>>>;
const item = (id: string, revenue_district?: string) =>
  ({
    pk: `APP#${id}`,
    id,
    name: 'A',
    phone_number: '919876543210',
    application_status: 'pending',
    submitted_at: '2026-11-20T04:00:00.000Z',
    ...(revenue_district && { revenue_district }),
  }) as unknown as StoredItem;
const stored: Record<string, StoredItem> = {
  'app-chennai': item('app-chennai', 'Chennai'),
  'app-madurai': item('app-madurai', 'Madurai'),
  'app-unknown': item('app-unknown'),
};

describe('application detail', () => {
  const handler = async () => {
    const { makeHandler } = await import('./application-detail');
    return makeHandler({
      applications: { get: (id) => Promise.resolve(stored[id]) },
      review: { auditOf: () => Promise.resolve([]) },
      notices: () => Promise.resolve([]),
      referrals: () => Promise.resolve({ brought: 0, approved: 0 }),
    });
  };

  it("answers another district's id exactly as a missing one", async () => {
    const detail = await handler();
    const missing = parsed(await detail(event(coordinator, { id: 'app-none' }), context));
    expect(missing.status).toBe(404);
    for (const id of ['app-madurai', 'app-unknown']) {
      expect(parsed(await detail(event(coordinator, { id }), context)), id).toEqual(missing);
    }
    expect(parsed(await detail(event(coordinator, { id: 'app-chennai' }), context)).status).toBe(200);
    expect(parsed(await detail(event(admin, { id: 'app-unknown' }), context)).status).toBe(200);
  });
});

describe('status change', () => {
  async function setup() {
    const changed: string[] = [];
    const review = {
      districtsOf: (ids: readonly string[]) =>
        Promise.resolve(new Map(ids.filter((id) => stored[id]).map((id) => [id, stored[id]!.revenue_district]))),
      changeStatus: (id: string) => {
        changed.push(id);
        return Promise.resolve(stored[id] ? ('changed' as const) : ('not-found' as const));
      },
    } as unknown as ReviewStore;
    const { makeHandler } = await import('./applications-status');
    return { changed, handler: makeHandler({ review, clock: () => new Date() }) };
  }

  it('refuses a selection with one id of another district, of unknown district or missing, and changes nothing', async () => {
    const { changed, handler } = await setup();
    for (const ids of [
      ['app-madurai'],
      ['app-chennai', 'app-madurai'],
      ['app-chennai', 'app-unknown'],
      ['app-chennai', 'app-none'],
    ]) {
      const answer = parsed(await handler(event(coordinator, { body: { ids, status: 'approved' } }), context));
      expect(answer, ids.join()).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    }
    expect(changed).toEqual([]);
  });

  it("changes a coordinator's own district; an admin's missing ids stay in the answer as before", async () => {
    const { changed, handler } = await setup();
    const own = parsed(
      await handler(event(coordinator, { body: { ids: ['app-chennai'], status: 'approved' } }), context),
    );
    expect(own).toMatchObject({ status: 200, body: { changed: ['app-chennai'] } });
    const all = parsed(
      await handler(event(admin, { body: { ids: ['app-madurai', 'app-none'], status: 'approved' } }), context),
    );
    expect(all).toMatchObject({ status: 200, body: { changed: ['app-madurai'], notFound: ['app-none'] } });
    expect(changed).toEqual(['app-chennai', 'app-madurai', 'app-none']);
  });
});

describe('list and export start', () => {
  it('answers an empty page for a district outside the scope without reading, and reads the scope otherwise', async () => {
    const asked: ScopedApplicationFilters[] = [];
    const { makeHandler } = await import('./applications-list');
    const list = makeHandler({
      list: (filters) => {
        asked.push(filters);
        return Promise.resolve({ items: [], scanned: 0 });
      },
      total: () => Promise.resolve(7),
      search: (filters) => {
        asked.push(filters);
        return Promise.resolve({ items: [], scanned: 0, total: 0 });
      },
      audit: { record: () => Promise.resolve('metered') },
      clock: () => new Date(),
    });
    const outside = parsed(await list(event(coordinator, { body: { filters: { district: 'Madurai' } } }), context));
    expect(outside).toEqual({ status: 200, body: { items: [], total: 0 } });
    expect(asked).toEqual([]);
    const inside = parsed(await list(event(coordinator, { body: {} }), context));
    expect(inside.body.total).toBe(7);
    expect(asked).toEqual([{ districts: ['Chennai'] }]);
  });

  it("keeps the exporter's scope in the audit entry and the answer", async () => {
    const started: unknown[] = [];
    const { makeHandler } = await import('./exports-start');
    const start = makeHandler({
      review: {
        startExport: (_scope, _actor, _now, districts) => {
          started.push(districts);
          return Promise.resolve('export-1');
        },
      },
      dashboardTotal: (filters) => Promise.resolve(filters.districts?.length ?? 99),
      reportTotal: () => Promise.resolve(5),
      clock: () => new Date(),
    });
    const scoped = parsed(await start(event(coordinator, { body: { filters: {} } }), context));
    expect(scoped).toEqual({ status: 201, body: { exportId: 'export-1', total: 1, scope: ['chennai'] } });
    const outside = parsed(await start(event(coordinator, { body: { report: { district: 'Madurai' } } }), context));
    expect(outside.body).toMatchObject({ total: 0, scope: ['chennai'] });
    const all = parsed(await start(event(admin, { body: { filters: {} } }), context));
    expect(all.body).toMatchObject({ total: 99, scope: 'all' });
    expect(started).toEqual([['chennai'], ['chennai'], 'all']);
  });
});
