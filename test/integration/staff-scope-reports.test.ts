import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as v from 'valibot';
import {
  reportRowsResponseSchema,
  reportSummarySchema,
  statsResponseSchema,
  type ReportSummary,
} from '../../rules/report';
import { listResponseSchema } from '../../rules/staff-api';
import {
  changeFields,
  changeStatus,
  DISTRICTS,
  generateApplications,
  inParallel,
  istDayOf,
  putAll,
  randomSource,
  scanApplications,
  shiftDay,
  STATUSES,
} from '../support/rollups';
import { type BruteFilters, type BruteReport, bruteForceReport } from '../support/rollups-brute';
import { startScopeTier, type ScopeTier } from '../support/scope-tier';
import { testStaff } from '../support/staff';
import { signIn } from '../support/tokens';

// A coordinator's report is their districts' alone (issue 17): on a generated set of at
// least 5,000 applications (SCOPE_TEST_APPLICATIONS) in every district and some without
// one, fed through the table's stream into the real consumer, the figures a coordinator
// gets for random filters equal a brute-force count of the applications of their
// districts only (test/support/rollups-brute.ts), as do their dashboard totals and the
// report's rows. The figures come from the rollups' district rows: exact at any size.

const COUNT = Math.max(5_000, Number(process.env.SCOPE_TEST_APPLICATIONS ?? 5_000));
const DAYS = 60;
const random = randomSource(20261124);
const pool = inject('pool');
const today = () => istDayOf(Date.now());

let tier: ScopeTier;
let firstDay: string;

/** The coordinators, each with the districts (as applications store them) of their scope. */
const coordinators = [
  { who: 'coordinator of Chennai', user: testStaff.coordinator, districts: ['Chennai'], token: '' },
  {
    who: 'coordinator of Chennai and Tiruvallur',
    user: testStaff.coordinatorOfTwo,
    districts: ['Chennai', 'Tiruvallur'],
    token: '',
  },
];

beforeAll(async () => {
  tier = await startScopeTier('scope-reports', { search: false });
  for (const c of coordinators) c.token = await signIn(inject('cognitoEndpoint'), pool.clientId, c.user);
  const generated = generateApplications(random, COUNT, DAYS, today());
  firstDay = generated.firstDay;
  await putAll(tier.db, tier.names.applications, generated.items);
  // After insert: status changes, and corrections that move applications into and out of the scopes.
  await inParallel(
    generated.items.filter(() => random.chance(0.2)),
    16,
    (item) => changeStatus(tier.db, tier.names.applications, item, random.pick(STATUSES)),
  );
  await inParallel(
    generated.items.filter(() => random.chance(0.03)),
    16,
    (item) => {
      const district = random.pick(['Chennai', 'Tiruvallur', 'Madurai', ...DISTRICTS]);
      return changeFields(tier.db, tier.names.applications, item, {
        revenue_district: district,
        district_status: `${district}#${String(item.application_status)}`,
      });
    },
  );
  await tier.poller.drain(240_000);
  expect(tier.poller.failures()).toEqual([]);
}, 400_000);

afterAll(() => tier?.stop());

async function get<T>(
  token: string,
  path: string,
  params: Record<string, string | undefined>,
  schema: v.GenericSchema<unknown, T>,
) {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const { status, body } = await tier.call<unknown>(token, 'GET', `${path}?${query}`);
  if (status !== 200) throw new Error(`${path} ${status}: ${JSON.stringify(body)}`);
  return v.parse(schema, body);
}

const paramsOf = (f: BruteFilters) => ({
  from: f.from,
  to: f.to,
  status: f.statuses?.join(','),
  district: f.districts?.join(','),
});

/** No filter, ranges and open ends, statuses, and district sets in, partly in and out of the scopes. */
function filterCombinations(n: number): BruteFilters[] {
  const day = (lo: number, hi: number) => shiftDay(firstDay, random.int(lo, hi));
  const fixed: BruteFilters[] = [
    {},
    { districts: ['Chennai'] },
    { districts: ['Tiruvallur'] },
    { districts: ['Madurai'] },
    { districts: ['Madurai', 'Chennai'], statuses: ['pending'] },
    { from: shiftDay(firstDay, 10), to: shiftDay(firstDay, 30) },
    { from: shiftDay(firstDay, 20) },
    { to: shiftDay(firstDay, 20), statuses: ['approved', 'rejected'] },
  ];
  const randomOnes = Array.from({ length: n - fixed.length }, (): BruteFilters => {
    const from = day(-3, DAYS);
    return {
      ...(random.chance(0.7) && { from }),
      ...(random.chance(0.6) && { to: shiftDay(from, random.int(0, 40)) }),
      ...(random.chance(0.5) && { statuses: STATUSES.filter(() => random.chance(0.5)) }),
      ...(random.chance(0.6) && {
        districts: Array.from({ length: random.int(1, 3) }, () => random.pick(['Chennai', 'Tiruvallur', ...DISTRICTS])),
      }),
    };
  });
  return [...fixed, ...randomOnes];
}

function expectSameFigures(api: ReportSummary, brute: BruteReport, label: string) {
  expect(api.total, label).toBe(brute.total);
  expect(api.byStatus, label).toEqual(brute.byStatus);
  expect(Object.fromEntries(api.byDistrict.map((d) => [d.district, d.count])), label).toEqual(brute.byDistrict);
  expect(api.byGender, label).toEqual(brute.byGender);
  expect(api.byMember, label).toEqual(brute.byMember);
  expect(api.members, label).toEqual(brute.members);
  expect(api.byAge, label).toEqual(brute.byAge);
  expect(api.topDistricts, label).toEqual(brute.topDistricts);
  for (const point of api.series) {
    const want = brute.perDay.get(point.day);
    expect({ day: point.day, total: point.total }, label).toEqual({ day: point.day, total: want?.total ?? 0 });
  }
}

/** The applications of some districts alone: what a coordinator of them may count. */
const ofDistricts = (raw: readonly Record<string, unknown>[], districts: readonly string[]) =>
  raw.filter((item) => districts.includes(String(item.revenue_district)));

describe.each(coordinators)('$who', (coordinator) => {
  it(`gets report figures equal to those of their districts' applications alone, of ${COUNT}`, async () => {
    const raw = await scanApplications(tier.db, tier.names.applications);
    expect(raw.length).toBe(COUNT);
    const own = ofDistricts(raw, coordinator.districts);
    expect(own.length).toBeGreaterThan(50);
    expect(own.length).toBeLessThan(raw.length / 5);
    const day = today();
    for (const f of filterCombinations(30)) {
      const label = JSON.stringify(f);
      const summary = await get(coordinator.token, '/api/admin/reports/summary', paramsOf(f), reportSummarySchema);
      const brute = bruteForceReport(own, f, day);
      expectSameFigures(summary, brute, label);
      // Nothing of another district, whatever was asked for.
      for (const d of summary.byDistrict) expect(coordinator.districts, label).toContain(d.district);
    }
  }, 120_000);

  it("gets the dashboard's totals and list total of their districts alone", async () => {
    const raw = await scanApplications(tier.db, tier.names.applications);
    const all = bruteForceReport(ofDistricts(raw, coordinator.districts), {}, today());
    const stats = await get(coordinator.token, '/api/admin/stats', {}, statsResponseSchema);
    expect(stats).toEqual({ total: all.total, ...all.byStatus });
    const list = await tier.call<unknown>(coordinator.token, 'POST', '/api/admin/applications/search', {
      pageSize: 10,
    });
    expect(v.parse(listResponseSchema, list.body).total).toBe(all.total);
  });

  it('pages through the report rows of their districts alone, newest first', async () => {
    const raw = await scanApplications(tier.db, tier.names.applications);
    const f: BruteFilters = {
      from: shiftDay(firstDay, 5),
      to: shiftDay(firstDay, 45),
      statuses: ['pending', 'approved'],
    };
    const own = ofDistricts(raw, coordinator.districts);
    const expected = own
      .filter((item) => bruteForceReport([item], f, today()).total === 1)
      .map((i) => String(i.submitted_sort))
      .sort()
      .reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(
        coordinator.token,
        '/api/admin/reports/rows',
        { ...paramsOf(f), limit: '37', cursor },
        reportRowsResponseSchema,
      );
      expect(page.total).toBe(expected.length);
      seen.push(...page.items.map((r) => `${r.submitted_at}#${r.id}`));
      cursor = page.nextCursor;
    } while (cursor && seen.length <= expected.length);
    expect(seen).toEqual(expected);
  });
});
