import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '../../lambdas/lib/db';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/lib/dynamo';
import type { ApiAdapter } from '../../local/api-adapter';
import { importApplications, type CsvRow } from '../../ops/import';
import { startTierApi } from '../support/tier-api';
import { signWithLocalPoolKey } from '../support/tokens';

// Reading many records is on the record, on the server (issue 14, item 4): past the
// threshold (25 rows here, BULK_READ_ROWS) the dashboard's list and the Reports page's rows
// write an audit entry naming the reader's subject and email as they were, the screen, the
// filters and the rows; an export counts the rows the server served for it, and only whoever
// started it completes it, once. Callers are tokens signed with the local pool's key, each
// with a subject of its own, so that the tests share the tier's tables without meeting.
const THRESHOLD = 25;
const pool = inject('pool');
const db = makeDocumentClient({ STAGE: 'test', APP_MODE: 'local', AWS_REGION: 'ap-south-1', DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint') });
const auditTable = inject('tableNames').audit!;
let api: ApiAdapter;

const marker = `ra${Date.now().toString(36)}`;
// 40 applications on days of May 2013, a month no other test writes.
const days = { from: '2013-05-01', to: '2013-05-31' };
const phoneBase = 9_400_000_000 + (Date.now() % 100_000) * 100;

beforeAll(async () => {
  api = await startTierApi({ BULK_READ_ROWS: String(THRESHOLD) });
  async function* rows(): AsyncGenerator<CsvRow> {
    for (let i = 0; i < 40; i++) {
      yield {
        line: i + 2,
        record: {
          id: `${marker}-${i}`,
          phone_number: `91${phoneBase + i}`,
          name: `Reader ${marker} ${i}`,
          gender: 'Female',
          date_of_birth: '2000-01-15',
          revenue_district: 'Salem',
          application_status: 'pending',
          submitted_at: new Date(Date.UTC(2013, 4, 2 + (i % 28), 6)).toISOString(),
          is_already_member: 'false',
          want_to_volunteer: '',
          want_to_join_and_volunteer: '',
        },
      };
    }
  }
  const summary = await importApplications({ db, tableName: inject('tableNames').applications!, rows: rows() });
  expect(summary.imported).toBe(40);
});
afterAll(async () => {
  await api.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** A reader: an id token with the email, or an access token, which carries none. */
function reader(kind: 'id' | 'access', email?: string) {
  const sub = randomUUID();
  const token = (asEmail = email) =>
    signWithLocalPoolKey({
      sub,
      'cognito:groups': ['viewer'],
      token_use: kind,
      iss: pool.issuer,
      iat: now(),
      exp: now() + 600,
      ...(kind === 'id' ? { aud: pool.clientId, email: asEmail } : { client_id: pool.clientId }),
    });
  return { sub, token };
}

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// The dashboard's list over this test's month: a name search would read the search index,
// which the stream fills and this tier does not run (test/integration/search.test.ts does).
const listFilters = { from: days.from, to: days.to };
const listPage = (token: string, cursor?: string, exportId?: string) =>
  call(token, 'POST', '/api/admin/applications/search', {
    filters: listFilters,
    pageSize: 10,
    ...(cursor && { cursor }),
    ...(exportId && { exportId }),
  });

const rowsPage = (token: string, cursor?: string, exportId?: string) =>
  call(
    token,
    'GET',
    `/api/admin/reports/rows?${new URLSearchParams({ ...days, limit: '10', ...(cursor && { cursor }), ...(exportId && { exportId }) })}`,
  );

/** The bulk-read entries of one subject. */
async function bulkReads(sub: string) {
  const result = await db.send(
    new QueryCommand({
      TableName: auditTable,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :read)',
      FilterExpression: 'by_sub = :sub',
      ExpressionAttributeValues: { ':pk': 'EXPORTS', ':read': 'READ#', ':sub': sub },
    }),
  );
  return result.Items ?? [];
}

describe('a large read is an export in the audit trail', () => {
  it('pages of the list past the threshold: who (subject, email as it was), when, which filters, how many rows', async () => {
    const { sub, token } = reader('id', 'reader@example.org');
    let cursor: string | undefined;
    const entries: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const { status, body } = await listPage(await token(), cursor);
      expect(status).toBe(200);
      cursor = body.nextCursor as string | undefined;
      entries.push((await bulkReads(sub)).length);
    }
    // 10, 20: below; 30 crosses it; 40: the same entry grows.
    expect(entries).toEqual([0, 0, 1, 1]);
    const [entry] = await bulkReads(sub);
    expect(entry).toMatchObject({
      action: 'export',
      kind: 'bulk-read',
      screen: 'dashboard',
      by: 'reader@example.org',
      by_sub: sub,
      filters: listFilters,
      rows: 20,
      window_rows: 40,
    });
    expect(Date.parse(String(entry!.at))).toBeGreaterThan(Date.now() - 60_000);

    // The same person with another email later: the entry keeps the email of the time.
    expect((await listPage(await token('renamed@example.org'))).status).toBe(200);
    expect(await bulkReads(sub)).toEqual([expect.objectContaining({ by: 'reader@example.org', rows: 30 })]);
  });

  it('pages of the report rows read with an access token (no email): the subject names the reader', async () => {
    const { sub, token } = reader('access');
    let cursor: string | undefined;
    do {
      const { status, body } = await rowsPage(await token(), cursor);
      expect(status).toBe(200);
      cursor = body.nextCursor as string | undefined;
    } while (cursor);
    expect(await bulkReads(sub)).toEqual([
      expect.objectContaining({ screen: 'reports', by: sub, by_sub: sub, filters: expect.objectContaining(days) as unknown, rows: 20, window_rows: 40 }),
    ]);
  });
});

describe('an export', () => {
  it('counts the rows the server served for it, and is completed once, by whoever started it', async () => {
    const owner = reader('id', 'owner@example.org');
    const other = reader('id', 'other@example.org');
    const start = await call(await owner.token(), 'POST', '/api/admin/exports', { report: days });
    expect(start.status).toBe(201);
    const exportId = start.body.exportId as string;

    // Someone else's pages never count into it (theirs are metered instead).
    expect((await rowsPage(await other.token(), undefined, exportId)).status).toBe(200);
    // Nor do pages of other filters.
    expect((await listPage(await owner.token(), undefined, exportId)).status).toBe(200);

    let cursor: string | undefined;
    let served = 0;
    do {
      const { body } = await rowsPage(await owner.token(), cursor, exportId);
      served += (body.items as unknown[]).length;
      cursor = body.nextCursor as string | undefined;
    } while (cursor);
    expect(served).toBe(40);

    expect((await call(await other.token(), 'POST', `/api/admin/exports/${exportId}/complete`, {})).status).toBe(404);
    // The browser's count is not asked for, nor believed.
    const done = await call(await owner.token(), 'POST', `/api/admin/exports/${exportId}/complete`, { rows: 5 });
    expect(done).toEqual({ status: 200, body: { exportId, rows: 40 } });
    expect((await call(await owner.token(), 'POST', `/api/admin/exports/${exportId}/complete`, {})).status).toBe(404);

    const entry = await db.send(new GetCommand({ TableName: auditTable, Key: { pk: 'EXPORTS', sk: exportId } }));
    expect(entry.Item).toMatchObject({ by: 'owner@example.org', by_sub: owner.sub, screen: 'reports', rows: 40, rows_read: 40 });
    // Its 40 rows, past the threshold, are its own entry: no second one as a bulk read.
    expect(await bulkReads(owner.sub)).toEqual([]);
  });
});
