import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand } from '../../lambdas/lib/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/lib/dynamo';
import { ensureStaffUser } from '../../local/cognito';
import { testStackConfig } from '../support/test-stack';
import { startLocalStack, type LocalStack } from '../../local/stack';
import { importApplications, type CsvRow } from '../../ops/import';
import { istDay } from '../../rules/ist';
import type { ApplicationRow, ListResponse } from '../../rules/staff-api';
import { signIn } from '../support/tokens';

// The staff API over a known data set: every filter narrows to exactly the rows a
// brute-force filter finds, paging visits each row once, and the review workflow
// writes its audit trail.
let stack: LocalStack;
let adminToken: string;
let viewerToken: string;
const db = () =>
  makeDocumentClient({
    STAGE: 'test',
    APP_MODE: 'local',
    AWS_REGION: 'ap-south-1',
    DYNAMODB_ENDPOINT: stack.dynamoDbEndpoint,
  });

const districts = ['Chennai', 'Madurai', 'Salem'];
const statuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
const names = ['Arun Kumar', 'Meena Devi', 'Karthik Raja', 'Priya Lakshmi', 'Senthil Nathan'];
// 60 applications, one every 7 hours back from 2026-11-20 23:00 IST: days and IST midnights both covered.
const data = Array.from({ length: 60 }, (_, i) => ({
  id: `staff-${i}`,
  phone_number: `9197${String(10_000_000 + i * 7).padStart(8, '0')}`,
  name: `${names[i % names.length]} ${i}`,
  email: i % 4 === 0 ? '' : `person${i}@Example.org`,
  gender: i % 2 ? 'Male' : 'Female',
  date_of_birth: '2000-01-15',
  revenue_district: districts[i % 3]!,
  application_status: statuses[i % 4]!,
  submitted_at: new Date(Date.parse('2026-11-20T17:30:00Z') - i * 7 * 3600_000).toISOString(),
}));

async function* rows(): AsyncGenerator<CsvRow> {
  for (const [i, row] of data.entries()) {
    yield {
      line: i + 2,
      record: { ...row, is_already_member: 'false', want_to_volunteer: '', want_to_join_and_volunteer: '' },
    };
  }
}

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  stack = await startLocalStack(testStackConfig({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' }));
  const client = db();
  const summary = await importApplications({ db: client, tableName: stack.tableNames.applications, rows: rows() });
  expect(summary.imported).toBe(60);
  // The totals come from the rollups, which the stream consumer keeps.
  await stack.applicationsStream.drain(30_000);
  adminToken = await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin);
  const viewer = { email: 'viewer@example.org', password: 'Viewer-Password-1!', groups: ['viewer'] };
  const cognitoClient = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: 'ap-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureStaffUser(
    { endpoint: stack.cognitoEndpoint, client: cognitoClient, stop: async () => undefined },
    stack.pool,
    viewer,
  );
  cognitoClient.destroy();
  viewerToken = await signIn(stack.cognitoEndpoint, stack.pool.clientId, viewer);
}, 90_000);
afterAll(() => stack?.stop());

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${init.token ?? adminToken}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const search = (body: unknown, token?: string) =>
  api('/api/admin/applications/search', { method: 'POST', body: JSON.stringify(body), ...(token && { token }) });

async function listAll(
  filters: Record<string, string>,
  pageSize = 10,
  options: { exportId?: string; token?: string } = {},
): Promise<{ rows: ApplicationRow[]; totals: number[] }> {
  const rows: ApplicationRow[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  do {
    const { status, body } = await search(
      { filters, pageSize, ...(cursor && { cursor }), ...(options.exportId && { exportId: options.exportId }) },
      options.token,
    );
    expect(status).toBe(200);
    const page = body as unknown as ListResponse;
    expect(page.items.length).toBeLessThanOrEqual(pageSize);
    rows.push(...page.items);
    totals.push(page.total);
    cursor = page.nextCursor;
  } while (cursor);
  return { rows, totals };
}

const expected = (keep: (row: (typeof data)[number]) => boolean) =>
  data
    .filter(keep)
    .sort((a, b) => b.submitted_at.localeCompare(a.submitted_at))
    .map((r) => r.id);

describe('dashboard listing', () => {
  it.each([
    ['no filter', {}, () => true],
    ['status', { status: 'approved' }, (r: (typeof data)[number]) => r.application_status === 'approved'],
    ['district', { district: 'Madurai' }, (r: (typeof data)[number]) => r.revenue_district === 'Madurai'],
    [
      'status and district',
      { status: 'pending', district: 'Chennai' },
      (r: (typeof data)[number]) => r.application_status === 'pending' && r.revenue_district === 'Chennai',
    ],
    [
      'IST day range',
      { from: '2026-11-15', to: '2026-11-17' },
      (r: (typeof data)[number]) => {
        const d = istDay(new Date(r.submitted_at));
        return d >= '2026-11-15' && d <= '2026-11-17';
      },
    ],
    [
      'single IST day',
      { from: '2026-11-18', to: '2026-11-18' },
      (r: (typeof data)[number]) => istDay(new Date(r.submitted_at)) === '2026-11-18',
    ],
    // Issue 18's rules: the start of a word of the name, the end of a number, a whole email.
    ['search by a name prefix, any case', { q: 'MEE' }, (r: (typeof data)[number]) => r.name.startsWith('Meena ')],
    ['search by the end of a number', { q: '00035' }, (r: (typeof data)[number]) => r.phone_number.endsWith('00035')],
    [
      'search by a whole number',
      { q: '+91 97100 00035' },
      (r: (typeof data)[number]) => r.phone_number === '919710000035',
    ],
    [
      'search by a whole email, any case',
      { q: 'PERSON1@example.ORG' },
      (r: (typeof data)[number]) => r.email === 'person1@Example.org',
    ],
    [
      'search within filters',
      { q: 'kumar', district: 'Chennai' },
      (r: (typeof data)[number]) => r.name.startsWith('Arun Kumar') && r.revenue_district === 'Chennai',
    ],
  ])('narrows exactly by %s, newest first, each row once, with the exact total', async (_name, query, keep) => {
    const want = expected(keep);
    expect(want.length).toBeGreaterThan(0);
    for (const pageSize of [10, 20]) {
      const { rows, totals } = await listAll(query, pageSize);
      expect(rows.map((r) => r.id)).toEqual(want);
      expect(new Set(totals)).toEqual(new Set([want.length]));
    }
  });

  it('shows no internal keys', async () => {
    const { body } = await search({ pageSize: 10 });
    const first = (body as unknown as ListResponse).items[0] as Record<string, unknown>;
    for (const key of ['pk', 'list_pk', 'submitted_sort', 'district_status', 'search_text'])
      expect(first).not.toHaveProperty(key);
  });

  it.each([
    [{ pageSize: 7 }, 'pageSize'],
    [{ pageSize: '10' }, 'pageSize'],
    [{ filters: { status: 'done' } }, 'filters.status'],
    [{ filters: { district: 'Gotham' } }, 'filters.district'],
    [{ filters: { from: '2026-02-30' } }, 'filters.from'],
    [{ filters: { from: '2026-11-20', to: '2026-11-01' } }, 'filters.to'],
    [{ exportId: 'not-an-export' }, 'exportId'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    // Hand-made start keys: empty key attributes were DynamoDB's ValidationException, a 500.
    [{ cursor: madeCursor({ pk: '', submitted_sort: '', list_pk: 'APP' }) }, 'cursor'],
    [{ cursor: madeCursor({ pk: 'APP#a', submitted_sort: '2026-01-01T00:00:00.000Z#b', list_pk: 'APP' }) }, 'cursor'],
    [{ cursor: madeCursor({ pk: 'APP#a', submitted_sort: 'yesterday#a', list_pk: 'APP' }) }, 'cursor'],
  ])('refuses %j with a field error', async (request, field) => {
    const { status, body } = await search(request);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { [field]: expect.any(String) as unknown } },
    });
  });
});

/** A start key as a client could forge it. */
function madeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

describe('review workflow', () => {
  it('changes the status of a selection with a note, and keeps the trail', async () => {
    const ids = ['staff-1', 'staff-5'];
    const { status, body } = await api('/api/admin/applications/status', {
      method: 'POST',
      body: JSON.stringify({ ids: [...ids, 'staff-missing'], status: 'rejected', note: 'Incomplete details' }),
    });
    expect(status).toBe(200);
    expect(body).toEqual({ changed: ids, unchanged: [], notFound: ['staff-missing'], notDone: [] });
    const detail = await api('/api/admin/applications/staff-1');
    expect(detail.body).toMatchObject({
      application: { id: 'staff-1', application_status: 'rejected' },
      audit: [
        { action: 'status', by: 'admin@example.com', from: 'under_review', to: 'rejected', note: 'Incomplete details' },
      ],
    });
    await stack.applicationsStream.drain(30_000);
    const { rows } = await listAll({ status: 'rejected', district: 'Madurai' });
    expect(rows.map((r) => r.id)).toContain('staff-1');
  });

  it('changes nothing and writes no audit entry when an application already has the status', async () => {
    // staff-9 is under_review (statuses[9 % 4]); staff-10 is approved.
    const before = await api('/api/admin/applications/staff-9');
    const { status, body } = await api('/api/admin/applications/status', {
      method: 'POST',
      body: JSON.stringify({ ids: ['staff-9', 'staff-10'], status: 'under_review', note: 'Looked again' }),
    });
    expect(status).toBe(200);
    expect(body).toEqual({ changed: ['staff-10'], unchanged: ['staff-9'], notFound: [], notDone: [] });
    const after = await api('/api/admin/applications/staff-9');
    expect(after.body).toMatchObject({ application: { application_status: 'under_review' }, audit: [] });
    expect((after.body.application as ApplicationRow).updated_at).toBe(
      (before.body.application as ApplicationRow).updated_at,
    );
    expect((await api('/api/admin/applications/staff-10')).body).toMatchObject({
      audit: [{ action: 'status', from: 'approved', to: 'under_review', note: 'Looked again' }],
    });
  });

  it('lets a viewer read but not change', async () => {
    expect((await api('/api/admin/applications/staff-2', { token: viewerToken })).status).toBe(200);
    const refused = await api('/api/admin/applications/status', {
      method: 'POST',
      token: viewerToken,
      body: JSON.stringify({ ids: ['staff-2'], status: 'approved' }),
    });
    expect(refused.status).toBe(403);
    expect((await api('/api/admin/applications/staff-2')).body).toMatchObject({
      application: { application_status: 'approved' },
    });
  });

  it('erases an application and its number guard, keeping only who erased which id and when', async () => {
    await api('/api/admin/applications/status', {
      method: 'POST',
      body: JSON.stringify({ ids: ['staff-3'], status: 'approved', note: 'x' }),
    });
    expect((await api('/api/admin/applications/staff-3', { method: 'DELETE', token: viewerToken })).status).toBe(403);
    expect((await api('/api/admin/applications/staff-3', { method: 'DELETE' })).status).toBe(200);
    expect((await api('/api/admin/applications/staff-3')).status).toBe(404);
    expect((await api('/api/admin/applications/staff-3', { method: 'DELETE' })).status).toBe(404);

    const client = db();
    const guard = await client.send(
      new GetCommand({ TableName: stack.tableNames.applications, Key: { pk: `PHONE#${data[3]!.phone_number}` } }),
    );
    expect(guard.Item).toBeUndefined();
    const trail = await client.send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'APP#staff-3' },
      }),
    );
    expect(trail.Items).toEqual([]);
    const erasures = await client.send(
      new QueryCommand({
        TableName: stack.tableNames.audit,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'ERASURES' },
      }),
    );
    expect(erasures.Items?.map((i) => ({ id: i.application_id as unknown, by: i.by as unknown }))).toEqual([
      { id: 'staff-3', by: 'admin@example.com' },
    ]);
  });
});

describe('export audit', () => {
  it('records who exported which filters, and the rows the server served for it', async () => {
    const filters = { status: 'pending' };
    const start = await api('/api/admin/exports', {
      method: 'POST',
      token: viewerToken,
      body: JSON.stringify({ filters }),
    });
    expect(start.status).toBe(201);
    const { exportId, total } = start.body as { exportId: string; total: number };
    expect(total).toBe(data.filter((r) => r.application_status === 'pending').length);
    const { rows } = await listAll(filters, 1000, { exportId, token: viewerToken });
    expect(rows).toHaveLength(total);
    // The browser's count is not believed: the entry holds what the server served.
    const completed = await api(`/api/admin/exports/${exportId}/complete`, {
      method: 'POST',
      token: viewerToken,
      body: JSON.stringify({ rows: 99_999 }),
    });
    expect(completed).toEqual({ status: 200, body: { exportId, rows: total } });
    const client = db();
    const entry = await client.send(
      new GetCommand({ TableName: stack.tableNames.audit, Key: { pk: 'EXPORTS', sk: exportId } }),
    );
    expect(entry.Item).toMatchObject({
      by: 'viewer@example.org',
      by_sub: expect.any(String) as unknown,
      screen: 'dashboard',
      filters,
      rows: total,
    });
  });
});
