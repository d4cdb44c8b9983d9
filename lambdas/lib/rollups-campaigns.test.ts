import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { applicationStatuses } from '../../rules/application';
import { reportFiltersSchema } from '../../rules/report';
import {
  CounterDelta,
  countedCell,
  dayKey,
  foldReport,
  parseDayKey,
  topIndex,
  TOP_COUNTERS,
  topKey,
  type TopRow,
} from '../../rules/report-counters';
import { applicationFiltersSchema } from '../../rules/staff-api';
import { campaignKeys, indexKeys } from '../adapters/application-items';
import { planStreams } from '../adapters/application-query';
import { COUNTER_BIAS, emptyRow, parseTopRow, rowUpdate } from '../adapters/rollups-keys';

// Issue 19: what a campaign adds to the listings' keys, the planner's choice, the rollups'
// row keys and updates, and the report's "Top campaigns".

const item = {
  application_status: 'approved',
  submitted_at: '2026-03-01T10:00:00.000Z',
  revenue_district: 'Chennai',
  gender: 'Female',
  date_of_birth: '2001-05-06',
  is_already_member: false,
  campaign_id: 'camp-1',
};

describe('campaign listings', () => {
  it('keys an application that came through a campaign on the campaign indexes, and no other', () => {
    const base = { id: 'a1', submitted_at: item.submitted_at, application_status: 'approved' as const };
    expect(indexKeys({ ...base, revenue_district: 'Chennai', campaign_id: 'camp-1' })).toMatchObject({
      campaign_status: 'camp-1#approved',
      campaign_district_status: 'camp-1#Chennai#approved',
    });
    expect(indexKeys(base)).not.toHaveProperty('campaign_status');
    expect(campaignKeys('camp-1', undefined, 'pending').campaign_district_status).toBe('camp-1#Unknown#pending');
  });

  it('reads only keys that hold what the filters select', () => {
    const keys = (s: ReturnType<typeof planStreams>) => s.map((x) => [x.index, x.keyValue, x.statuses]);
    expect(keys(planStreams({ districts: [], campaign: 'c' }))).toEqual([['by-campaign', 'c', undefined]]);
    expect(keys(planStreams({ statuses: ['approved'], districts: [], campaign: 'c' }))).toEqual([
      ['by-campaign-status', 'c#approved', undefined],
    ]);
    const pairs = planStreams({ districts: ['Salem', 'Erode'], campaign: 'c' });
    expect(pairs).toHaveLength(2 * applicationStatuses.length);
    expect(new Set(pairs.map((s) => s.index))).toEqual(new Set(['by-campaign-district-status']));
    expect(pairs.every((s) => s.statuses === undefined)).toBe(true);
    // The report's filters plan alike (the raw rows and the exports).
    const report = v.parse(reportFiltersSchema, { campaign: 'c', status: 'pending' });
    expect(keys(planStreams(report))).toEqual([['by-campaign-status', 'c#pending', undefined]]);
    expect(planStreams(v.parse(reportFiltersSchema, {})).map((s) => s.index)).toEqual(['by-submitted']);
  });

  it('checks the filter and refuses it with a search, which the search index cannot narrow', () => {
    expect(v.safeParse(applicationFiltersSchema, { campaign: 'camp-1' }).success).toBe(true);
    expect(v.safeParse(applicationFiltersSchema, { campaign: 'no spaces' }).success).toBe(false);
    const both = v.safeParse(applicationFiltersSchema, { campaign: 'camp-1', q: 'kavya' });
    expect(both.success).toBe(false);
    expect(v.safeParse(reportFiltersSchema, { campaign: 'a/b' }).success).toBe(false);
    expect(v.parse(reportFiltersSchema, { campaign: '' })).not.toHaveProperty('campaign');
  });
});

describe('campaign rollups', () => {
  it('counts an application in its day row, its campaign day row and its Top row', () => {
    const cell = countedCell(item, '2026-03-02')!;
    expect(cell.campaign).toBe('camp-1');
    const delta = new CounterDelta().addCell(cell, 1);
    expect([...delta.days.keys()]).toEqual([
      dayKey('approved', '2026-03-01'),
      dayKey('approved', '2026-03-01', 'camp-1'),
      topKey('2026-03-01', 'camp-1'),
    ]);
    expect(parseDayKey('approved#2026-03-01#camp-1')).toEqual({
      status: 'approved',
      day: '2026-03-01',
      campaign: 'camp-1',
    });
    expect(countedCell({ ...item, campaign_id: 'bad id' }, '2026-03-02')!.campaign).toBeUndefined();
    // A campaign changed (or lost) moves its counters like any other part of the cell.
    const moved = CounterDelta.between(cell, { ...cell, campaign: 'camp-2' }).nonZero();
    expect([...moved.keys()].filter((k) => k.includes('camp-'))).toHaveLength(4);
  });

  it("writes a campaign's day row in its own partition, and a Top row's counter in its zero-filled list", () => {
    const day = rowUpdate('1', dayKey('approved', '2026-03-01', 'camp-1'), new Map([[3, 1]]));
    expect(day).toMatchObject({
      Key: { pk: 'G#1#CDAYS#camp-1', sk: 'approved#2026-03-01' },
      ConditionExpression: 'attribute_exists(pk)',
    });
    const at = topIndex('approved', 0);
    const top = rowUpdate('1', topKey('2026-03-01', 'camp-1'), new Map([[at, -1]]));
    expect(top).toEqual({
      Key: { pk: 'G#1#TOP', sk: '2026-03-01#camp-1' },
      UpdateExpression: `SET c[${at}] = c[${at}] + :v0`,
      ExpressionAttributeValues: { ':v0': -1 },
      ConditionExpression: 'attribute_exists(c)',
    });
    // Created as a day row is: every counter there, zero (biased), whatever will count.
    const created = emptyRow('1', topKey('2026-03-01', 'camp-1'));
    const counters = created.Item.c.flat();
    expect(counters).toHaveLength(TOP_COUNTERS);
    expect(counters.every((n) => n === COUNTER_BIAS)).toBe(true);
    expect(created.ConditionExpression).toBe('attribute_not_exists(c)');
    const stored = counters.map((n, i) => (i === 80 ? n + 2 : n));
    expect(parseTopRow({ ...created.Item, c: stored })).toEqual({
      day: '2026-03-01',
      campaign: 'camp-1',
      counts: new Map([[80, 2]]),
    });
    // A sparse row stored before the lists is still read.
    expect(parseTopRow({ pk: 'G#1#TOP', sk: '2026-03-01#camp-1', n80: 2, n3: 0 })).toEqual({
      day: '2026-03-01',
      campaign: 'camp-1',
      counts: new Map([[80, 2]]),
    });
  });

  it('folds Top campaigns within the filters: days, statuses, districts and the campaign', () => {
    const row = (day: string, campaign: string, counts: [number, number][]): TopRow => ({
      day,
      campaign,
      counts: new Map(counts),
    });
    const chennai = 5; // index in reportDistricts (any fixed row works)
    const top = [
      row('2026-03-01', 'a', [
        [topIndex('pending', chennai), 3],
        [topIndex('approved', chennai), 2],
      ]),
      row('2026-03-02', 'b', [[topIndex('approved', 0), 4]]),
      row('2026-02-01', 'c', [[topIndex('approved', 0), 9]]),
    ];
    const fold = (filters: Record<string, string>) =>
      foldReport({
        asOf: '2026-03-03',
        filters: v.parse(reportFiltersSchema, { from: '2026-03-01', to: '2026-03-02', ...filters }),
        range: { from: '2026-03-01', to: '2026-03-02' },
        days: [],
        corrections: [],
        top,
      }).topCampaigns;
    expect(fold({})).toEqual([
      { campaign: 'a', applications: 5, approved: 2 },
      { campaign: 'b', applications: 4, approved: 4 },
    ]);
    expect(fold({ status: 'pending' })).toEqual([{ campaign: 'a', applications: 3, approved: 0 }]);
    expect(fold({ campaign: 'b' })).toEqual([{ campaign: 'b', applications: 4, approved: 4 }]);
  });
});
