import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignKeys } from '../../lambdas/adapters/application-items';
import { listApplications } from '../../lambdas/adapters/application-list';
import { rebuildRollups } from '../../lambdas/lib/rollups-rebuild';
import { UpdateCommand } from '../../lambdas/lib/db';
import {
  DISTRICTS,
  erase,
  generateApplications,
  inParallel,
  istDayOf,
  putAll,
  randomSource,
  scanApplications,
  shiftDay,
  type Status,
  STATUSES,
} from '../support/rollups';
import {
  type BruteFilters,
  bruteForceReport,
  bruteReferrals,
  bruteTopCampaigns,
  bruteTopReferrers,
} from '../support/rollups-brute';
import { topReferrers } from '../../lambdas/lib/referrals';
import { everyDistrict } from '../../rules/staff-scope';
import { rollupsHarness, type RollupsHarness } from '../support/rollups-harness';

// Issue 19: reports and the dashboard by campaign. On a generated set where some
// applications came through one of a few campaigns (the flat `campaign_id` the submit
// freezes, with the campaign indexes' keys), fed through the stream, then changed and
// erased: the report of each campaign, its "Top campaigns" series and the dashboard's
// campaign-filtered pages equal what a brute-force count of the raw items says; and
// again after `rollups:rebuild` has built a new generation from the table.

const random = randomSource(19_04);
const COUNT = 2500;
const CAMPAIGNS = ['camp-a', 'camp-b', 'camp-c', 'Camp_D', 'camp-e'];
/** Members whose referral links brought some of the applications (issue 19). */
const REFERRERS = Array.from({ length: 14 }, (_, i) => `ref-${i}`);
let h: RollupsHarness;
const live = new Map<string, Record<string, unknown>>();

/** The campaign keys as the submit and a status change write them. */
function withCampaign(item: Record<string, unknown>, campaign: string): Record<string, unknown> {
  const district = typeof item.revenue_district === 'string' ? item.revenue_district : undefined;
  return { ...item, campaign_id: campaign, ...campaignKeys(campaign, district, String(item.application_status)) };
}

/** A staff status change with the keys review.ts writes (district and campaign indexes). */
async function changeStatus(item: Record<string, unknown>, status: Status) {
  const district = typeof item.revenue_district === 'string' ? item.revenue_district : undefined;
  const campaign = typeof item.campaign_id === 'string' ? item.campaign_id : undefined;
  const keys = campaign ? campaignKeys(campaign, district, status) : {};
  const sets = Object.keys(keys).map((k) => `${k} = :${k}`);
  await h.db.send(
    new UpdateCommand({
      TableName: h.names.applications,
      Key: { pk: item.pk },
      UpdateExpression: ['SET application_status = :s, district_status = :ds', ...sets].join(', '),
      ExpressionAttributeValues: {
        ':s': status,
        ':ds': `${district ?? 'Unknown'}#${status}`,
        ...Object.fromEntries(Object.entries(keys).map(([k, v]) => [`:${k}`, v])),
      },
    }),
  );
  Object.assign(item, { application_status: status, district_status: `${district ?? 'Unknown'}#${status}`, ...keys });
}

beforeAll(async () => {
  h = await rollupsHarness('rollups-campaigns', new Date());
  const generated = generateApplications(random, COUNT, 45, istDayOf(Date.now()), 'c');
  const items = generated.items
    .map((item) => (random.chance(0.45) ? withCampaign(item, random.pick(CAMPAIGNS)) : item))
    .map((item) => (random.chance(0.3) ? { ...item, referrer_id: random.pick(REFERRERS) } : item));
  for (const item of items) live.set(String(item.pk), item);
  await putAll(h.db, h.names.applications, items);
  await inParallel(
    items.filter(() => random.chance(0.35)),
    16,
    (item) => changeStatus(item, random.pick(STATUSES)),
  );
  await inParallel(
    items.filter(() => random.chance(0.04)),
    16,
    async (item) => {
      await erase(h.db, h.names.applications, item);
      live.delete(String(item.pk));
    },
  );
  await h.poller.drain(120_000);
}, 240_000);
afterAll(() => h?.stop());

const toQuery = (f: BruteFilters): Record<string, string> => ({
  ...(f.from && { from: f.from }),
  ...(f.to && { to: f.to }),
  ...(f.statuses && { status: f.statuses.join(',') }),
  ...(f.districts && { district: f.districts.join(',') }),
  ...(f.campaign && { campaign: f.campaign }),
});

async function expectReportsMatch() {
  const raw = await scanApplications(h.db, h.names.applications);
  expect(raw.length).toBe(live.size);
  const today = istDayOf(h.clock.getTime());
  const cases: BruteFilters[] = [
    {},
    ...CAMPAIGNS.map((campaign) => ({ campaign })),
    { campaign: 'camp-b', statuses: ['approved', 'rejected'] },
    { campaign: 'camp-c', districts: DISTRICTS.slice(0, 5), from: shiftDay(today, -20) },
    { districts: DISTRICTS.slice(3, 9), statuses: ['approved', 'pending'] },
    { campaign: 'no-such-campaign' },
  ];
  for (const filters of cases) {
    const report = await h.report(toQuery(filters));
    const brute = bruteForceReport(raw, filters, today);
    expect(report.total, JSON.stringify(filters)).toBe(brute.total);
    expect(report.byStatus).toEqual(brute.byStatus);
    expect(report.byAge).toEqual(brute.byAge);
    expect(report.byGender).toEqual(brute.byGender);
    expect(report.byMember).toEqual(brute.byMember);
    expect(report.members).toEqual(brute.members);
    expect(Object.fromEntries(report.byDistrict.map((d) => [d.district, d.count]))).toEqual(brute.byDistrict);
    const perDay = Object.fromEntries(report.series.filter((p) => p.total > 0).map((p) => [p.day, p.total]));
    expect(perDay).toEqual(Object.fromEntries([...brute.perDay].map(([day, p]) => [day, p.total])));
    expect(report.topCampaigns).toEqual(bruteTopCampaigns(raw, filters, today));
    expect(report.referrals, JSON.stringify(filters)).toEqual(bruteReferrals(raw, filters, today));
    const leaders = await topReferrers(
      h.store,
      (ids) => Promise.resolve(new Map(ids.map((id) => [id, { name: id }]))),
      { districts: filters.districts ?? [], campaign: filters.campaign ?? null },
      everyDistrict,
    );
    expect(
      leaders.map((l) => ({ referrer: l.id, brought: l.brought, approved: l.approved })),
      JSON.stringify(filters),
    ).toEqual(bruteTopReferrers(raw, filters, today));
  }
}

describe('reports and the dashboard by campaign', () => {
  it('counts every campaign exactly, in every chart and in "Top campaigns"', async () => {
    await expectReportsMatch();
    const report = await h.report({});
    expect((report.topCampaigns ?? []).map((c) => c.campaign).sort()).toEqual([...CAMPAIGNS].sort());
  });

  it("lists a campaign's applications newest first, with any status and districts", async () => {
    const raw = await scanApplications(h.db, h.names.applications);
    const sortKey = (i: Record<string, unknown>) => String(i.submitted_sort);
    const cases = [
      { campaign: 'camp-a' },
      { campaign: 'camp-b', status: 'approved' as const },
      { campaign: 'Camp_D', districts: DISTRICTS.slice(0, 4) },
      { campaign: 'camp-e', status: 'pending' as const, districts: DISTRICTS.slice(2, 3) },
    ];
    for (const filters of cases) {
      const expected = raw
        .filter((i) => i.campaign_id === filters.campaign)
        .filter((i) => !filters.status || i.application_status === filters.status)
        .filter(
          (i) => !filters.districts || (filters.districts as readonly string[]).includes(String(i.revenue_district)),
        )
        .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : -1))
        .map((i) => i.id);
      const seen: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await listApplications(h.db, h.names.applications, filters, {
          pageSize: 50,
          ...(cursor && { cursor }),
        });
        // Bounded: a page reads its rows plus a few per key, never the campaign's others.
        expect(page.scanned).toBeLessThanOrEqual(50 + 3 * 4 * (filters.districts?.length ?? 1) + 4);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen, JSON.stringify(filters)).toEqual(expected);
    }
  });

  it('builds the same figures again with rollups:rebuild', async () => {
    const before = (await h.store.getMeta())!;
    const result = await rebuildRollups(
      { store: h.store, db: h.db, applicationsTable: h.names.applications, clock: () => h.clock },
      { keepPrevious: false },
    );
    expect(result.previous).toBe(before.current);
    expect((await h.store.getMeta())!.current).toBe(result.generation);
    await expectReportsMatch();
  }, 120_000);
});
