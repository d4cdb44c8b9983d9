import type { DynamoDBBatchResponse, DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as v from 'valibot';
import { makeRollupsWriter } from '../../lambdas/adapters/rollups-writer';
import { routes } from '../../lib/api-routes';
import { startApiAdapter, type ApiAdapter } from '../../local/api-adapter';
import { ensureTables, localDb, localDynamoClient, localTableNames } from '../../local/dynamodb';
import { localLambdaContext } from '../../local/queue';
import { startStreamPoller, type StreamPoller } from '../../local/stream-poller';
import {
  reportRowsResponseSchema,
  reportSummarySchema,
  statsResponseSchema,
  type ReportSummary,
} from '../../rules/report';
import { useLocalFunctionEnv } from '../support/env';
import { noSearchIndex } from '../support/no-search-index';
import {
  changeFields,
  changeStatus,
  DISTRICTS,
  erase,
  generateApplications,
  inParallel,
  istDayOf,
  putAll,
  randomSource,
  readWholeStream,
  scanApplications,
  shiftDay,
  STATUSES,
} from '../support/rollups';
import { type BruteFilters, bruteForceReport } from '../support/rollups-brute';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';

// Counts that stay exact at any size: on a generated set of applications (at least
// 20,000 by default: ROLLUPS_TEST_APPLICATIONS), fed through the table's stream by the
// local poller into the real consumer, the report API's figures equal a brute-force
// count of the raw items (test/support/rollups.ts, written from the spec) for random
// filters; and again after the whole stream is handed to the consumer twice more.

const COUNT = Number(process.env.ROLLUPS_TEST_APPLICATIONS ?? 20_000);
const DAYS = 120;
const random = randomSource(20261121);
const names = localTableNames(`rollups-eq-${Date.now().toString(36)}`);
const endpoint = inject('dynamoDbEndpoint');
const pool = inject('pool');
const client = localDynamoClient(endpoint);
const db = localDb(endpoint);

let api: ApiAdapter;
let poller: StreamPoller;
let token: string;
let streamHandler: DynamoDBStreamHandler;
const live = new Map<string, Record<string, unknown>>();
const today = () => istDayOf(Date.now());
let firstDay: string;
let lastDay: string;

beforeAll(async () => {
  await ensureTables(client, names);
  useLocalFunctionEnv({
    TABLE_APPLICATIONS: names.applications,
    TABLE_ROLLUPS: names.rollups,
    TABLE_SEARCH: names.search,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const handlerPath = (name: string) => `../../lambdas/handlers/${name}.ts`;
  // The rollups alone: the consumer keeps no search index here (see no-search-index.ts).
  const stream = await import('../../lambdas/handlers/applications-stream');
  const consume = stream.makeHandler({
    rollups: makeRollupsWriter(db, names.rollups),
    search: noSearchIndex,
    clock: () => new Date(),
  });
  streamHandler = async (event) => consume(event);
  api = await startApiAdapter({
    port: 0,
    routes,
    loadHandler: async (name) => ((await import(handlerPath(name))) as { handler: never }).handler,
    jwt: { issuer: pool.issuer, audience: [pool.clientId] },
  });
  poller = await startStreamPoller({
    endpoint,
    tableName: names.applications,
    handler: (event, context) => streamHandler(event, context, () => undefined),
    pollIntervalMs: 100,
  });
  token = await signIn(inject('cognitoEndpoint'), pool.clientId, testStaff.viewer);
});

afterAll(async () => {
  await poller?.stop();
  await api?.close();
  client.destroy();
});

async function get<T>(path: string, params: Record<string, string | undefined>, schema: v.GenericSchema<unknown, T>) {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const response = await fetch(`${api.url}${path}?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const body: unknown = await response.json();
  if (response.status !== 200) throw new Error(`${path} ${response.status}: ${JSON.stringify(body)}`);
  return v.parse(schema, body);
}

const paramsOf = (f: BruteFilters) => ({
  from: f.from,
  to: f.to,
  status: f.statuses?.join(','),
  district: f.districts?.join(','),
});

/** Filters: no filter, single days, ranges inside and past the data, open ends, status and district sets. */
function filterCombinations(n: number): BruteFilters[] {
  const day = (lo: number, hi: number) => shiftDay(firstDay, random.int(lo, hi));
  const someDistricts = () => Array.from({ length: random.int(1, 5) }, () => random.pick(DISTRICTS));
  const someStatuses = () => STATUSES.filter(() => random.chance(0.5));
  const fixed: BruteFilters[] = [
    {},
    { from: firstDay, to: firstDay },
    { from: lastDay, to: lastDay },
    { from: shiftDay(firstDay, 40), to: shiftDay(firstDay, 40), statuses: ['approved'] },
    { from: shiftDay(firstDay, -10), to: shiftDay(lastDay, 5) },
    { from: shiftDay(firstDay, 30) },
    { to: shiftDay(firstDay, 30), districts: ['Chennai'] },
    { statuses: ['rejected', 'under_review'], districts: ['Madurai', 'Nilgiris', 'Salem'] },
  ];
  const randomOnes = Array.from({ length: n - fixed.length }, (): BruteFilters => {
    const from = day(-5, DAYS);
    const kind = random.next();
    return {
      ...(kind < 0.8 && { from }),
      ...(kind < 0.9 && { to: kind < 0.2 ? from : shiftDay(from, random.int(0, 90)) }),
      ...(random.chance(0.5) && { statuses: someStatuses() }),
      ...(random.chance(0.5) && { districts: someDistricts() }),
    };
  });
  return [...fixed, ...randomOnes];
}

function expectSameFigures(api: ReportSummary, brute: ReturnType<typeof bruteForceReport>, f: BruteFilters) {
  const label = JSON.stringify(f);
  expect(api.total, label).toBe(brute.total);
  expect(api.byStatus, label).toEqual(brute.byStatus);
  expect(Object.fromEntries(api.byDistrict.map((d) => [d.district, d.count])), label).toEqual(brute.byDistrict);
  expect(api.byGender, label).toEqual(brute.byGender);
  expect(api.byMember, label).toEqual(brute.byMember);
  expect(api.members, label).toEqual(brute.members);
  expect(api.byAge, label).toEqual(brute.byAge);
  expect(api.topDistricts, label).toEqual(brute.topDistricts);
  // Every day of the range, zeros included; open ends reach at least the data's first and last day.
  if (f.from) expect(api.range?.from, label).toBe(f.from);
  if (f.to) expect(api.range?.to, label).toBe(f.to);
  if (brute.firstDay) {
    expect(api.range!.from <= brute.firstDay && api.range!.to >= brute.lastDay!, label).toBe(true);
  }
  const days = api.series.map((p) => p.day);
  if (api.range)
    expect(days.length, label).toBe((Date.parse(api.range.to) - Date.parse(api.range.from)) / 86_400_000 + 1);
  expect(new Set(days).size, label).toBe(days.length);
  for (const point of api.series) {
    const want = brute.perDay.get(point.day);
    expect({ day: point.day, total: point.total, byStatus: point.byStatus }, label).toEqual({
      day: point.day,
      total: want?.total ?? 0,
      byStatus: want?.byStatus ?? Object.fromEntries(STATUSES.map((s) => [s, 0])),
    });
  }
}

async function expectReportsMatch(filters: readonly BruteFilters[]) {
  const raw = await scanApplications(db, names.applications);
  expect(raw.length).toBe(live.size);
  const day = today();
  for (const f of filters) {
    const summary = await get('/api/admin/reports/summary', paramsOf(f), reportSummarySchema);
    expect(summary.asOf).toBe(day);
    expectSameFigures(summary, bruteForceReport(raw, f, day), f);
  }
  const stats = await get('/api/admin/stats', {}, statsResponseSchema);
  const all = bruteForceReport(raw, {}, day);
  expect(stats).toEqual({ total: all.total, ...all.byStatus });
  return raw;
}

const filters: BruteFilters[] = [];

describe('report rollups fed by the applications stream', () => {
  it(`count ${COUNT} applications over ${DAYS} days exactly, for 34 filter combinations`, async () => {
    const generated = generateApplications(random, COUNT, DAYS, today());
    ({ firstDay, lastDay } = generated);
    for (const item of generated.items) live.set(String(item.pk), item);
    // Guard items share the table and the stream: the consumer must ignore them.
    const guards = generated.items.slice(0, 1000).map((i) => ({
      pk: `PHONE#${String(i.phone_number)}`,
      application_id: String(i.pk).slice(4),
      created_at: i.submitted_at,
    }));
    await putAll(db, names.applications, [...generated.items, ...guards]);

    // After insert: staff change statuses (some twice), an import corrects fields, some are erased.
    const items = [...live.values()];
    const changed = items.filter(() => random.chance(0.25));
    await inParallel(changed, 16, (item) => changeStatus(db, names.applications, item, random.pick(STATUSES)));
    await inParallel(
      changed.filter(() => random.chance(0.2)),
      16,
      (item) => changeStatus(db, names.applications, item, random.pick(STATUSES)),
    );
    await inParallel(
      items.filter(() => random.chance(0.03)),
      16,
      (item) => {
        const district = random.pick(DISTRICTS);
        return changeFields(db, names.applications, item, {
          gender: random.pick(['Male', 'Female', 'Other']),
          date_of_birth: random.chance(0.5) ? '2007-01-01' : 'unknown',
          is_already_member: random.chance(0.5),
          revenue_district: district,
          district_status: `${district}#${String(item.application_status)}`,
        });
      },
    );
    await inParallel(
      items.filter(() => random.chance(0.05)),
      16,
      async (item) => {
        await erase(db, names.applications, item);
        live.delete(String(item.pk));
      },
    );
    await poller.drain(240_000);
    expect(poller.failures()).toEqual([]);

    filters.push(...filterCombinations(34));
    await expectReportsMatch(filters);
  }, 400_000);

  it('counts each change once when the whole stream is handed to the consumer twice more', async () => {
    const records = await readWholeStream(client, endpoint, names.applications);
    expect(records.length).toBeGreaterThan(COUNT);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < records.length; i += 100) {
        const event: DynamoDBStreamEvent = { Records: records.slice(i, i + 100) };
        const result = (await streamHandler(event, localLambdaContext('replay', 60_000), () => undefined)) as
          DynamoDBBatchResponse | undefined;
        expect(result?.batchItemFailures ?? []).toEqual([]);
      }
    }
    await expectReportsMatch(filters);
  }, 300_000);

  it('pages through the raw rows of a filter, newest first, with the rollups total', async () => {
    const raw = await scanApplications(db, names.applications);
    const cases: BruteFilters[] = [
      { from: shiftDay(firstDay, 10), to: shiftDay(firstDay, 12) },
      {
        from: shiftDay(firstDay, 50),
        to: shiftDay(firstDay, 80),
        statuses: ['approved', 'rejected'],
        districts: ['Chennai', 'Madurai'],
      },
      { districts: ['Salem', 'Erode', 'Karur'], to: shiftDay(firstDay, 40) },
      { statuses: ['under_review'], from: shiftDay(lastDay, -20) },
    ];
    for (const f of cases) {
      const want = bruteForceReport(raw, f, today());
      const expected = raw
        .filter((item) => {
          const one = bruteForceReport([item], f, today());
          return one.total === 1;
        })
        .map((i) => String(i.submitted_sort))
        .sort()
        .reverse();
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await get(
          '/api/admin/reports/rows',
          { ...paramsOf(f), limit: '97', cursor },
          reportRowsResponseSchema,
        );
        expect(page.total, JSON.stringify(f)).toBe(want.total);
        expect(page.items.length).toBeLessThanOrEqual(97);
        seen.push(...page.items.map((r) => `${r.submitted_at}#${r.id}`));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 1000);
      expect(seen, JSON.stringify(f)).toEqual(expected);
    }
  }, 120_000);

  it('answers 400 with field codes for bad filters, never 500', async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ from: '2026-02-30' }, { from: 'INVALID_DATE' }],
      [{ from: '2026-03-02', to: '2026-03-01' }, { to: 'RANGE_INVALID' }],
      [{ from: '2024-01-01', to: '2026-03-01' }, { from: 'RANGE_TOO_LONG' }],
      [{ status: 'archived' }, { status: 'INVALID_STATUS' }],
      [{ district: 'Atlantis' }, { district: 'INVALID_DISTRICT' }],
    ];
    for (const path of ['/api/admin/reports/summary', '/api/admin/reports/rows']) {
      for (const [params, fields] of cases) {
        const response = await fetch(`${api.url}${path}?${new URLSearchParams(params)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status, `${path} ${JSON.stringify(params)}`).toBe(400);
        expect(await response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', fields } });
      }
    }
    const made = (cursor: unknown) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
    for (const cursor of [
      'bm90LWpzb24',
      'eyJ2IjoyfQ',
      'x'.repeat(2000),
      // Hand-made: a bound below any range was DynamoDB's BETWEEN error, a 500.
      made({ v: 1, after: '0', total: 5 }),
      made({ v: 1, after: '', total: 0 }),
    ]) {
      const response = await fetch(`${api.url}/api/admin/reports/rows?from=2026-01-01&cursor=${cursor}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: 'VALIDATION_FAILED', fields: { cursor: 'INVALID_CURSOR' } },
      });
    }
  });
});
