import { describe, expect, it } from 'vitest';
import { CounterDelta, type CountedCell, topKey } from './report-counters';
import { reportDistricts } from './report';
import {
  ALL_BOARD,
  APPROVED,
  boardKey,
  boardsFor,
  BROUGHT,
  campaignBoard,
  districtBoard,
  mergeBoards,
  NO_CAMPAIGN,
  parseBoardKey,
  REFERRED_OFFSET,
  referralFigures,
  statusDistrictIndex,
} from './report-referrals';

const chennai = reportDistricts.indexOf('Chennai');
const madurai = reportDistricts.indexOf('Madurai');
const cell = (overrides: Partial<CountedCell> = {}): CountedCell => ({
  day: '2026-03-01',
  status: 'pending',
  district: 'Chennai',
  gender: 'Female',
  member: 'No',
  age: '18-24',
  referrer: 'ref-a',
  ...overrides,
});

describe('referral counters', () => {
  it('counts a referred application on every board of its district and campaign, approved ones twice', () => {
    const delta = new CounterDelta().addCell(cell({ status: 'approved', campaign: 'camp-1' }), 1);
    for (const board of [
      ALL_BOARD,
      districtBoard(chennai),
      campaignBoard('camp-1'),
      campaignBoard('camp-1', chennai),
    ]) {
      expect(delta.days.get(boardKey(board, 'ref-a'))).toEqual(
        new Map([
          [BROUGHT, 1],
          [APPROVED, 1],
        ]),
      );
    }
    expect(
      delta.days.get(topKey('2026-03-01', 'camp-1'))?.get(REFERRED_OFFSET + statusDistrictIndex('approved', chennai)),
    ).toBe(1);
  });

  it('moves a recruit from brought to approved without counting them twice', () => {
    const delta = CounterDelta.between(cell(), cell({ status: 'approved' })).nonZero();
    expect(delta.get(boardKey(ALL_BOARD, 'ref-a'))).toEqual(new Map([[APPROVED, 1]]));
    // A recruit through no campaign counts on the "no campaign" Top row.
    expect([...delta.keys()].filter((k) => k.startsWith(`T#2026-03-01#${NO_CAMPAIGN}`))).toHaveLength(1);
    expect(CounterDelta.between(cell(), cell()).nonZero().size).toBe(0);
    // Another referrer is another cell: one loses the recruit, the other gains them.
    const moved = CounterDelta.between(cell(), cell({ referrer: 'ref-b' })).nonZero();
    expect(moved.get(boardKey(ALL_BOARD, 'ref-a'))).toEqual(new Map([[BROUGHT, -1]]));
    expect(moved.get(boardKey(ALL_BOARD, 'ref-b'))).toEqual(new Map([[BROUGHT, 1]]));
  });

  it('parses its keys back, whatever the board', () => {
    expect(parseBoardKey(boardKey(campaignBoard('Camp_D-1', 3), 'id-1'))).toEqual({
      board: 'c:Camp_D-1:3',
      referrer: 'id-1',
    });
  });
});

describe('leaderboards', () => {
  it('reads one board without districts, one per district with them', () => {
    expect(boardsFor({ districts: [], campaign: null })).toEqual([ALL_BOARD]);
    expect(boardsFor({ districts: [], campaign: 'c1' })).toEqual(['c:c1']);
    expect(boardsFor({ districts: ['Chennai', 'Madurai'], campaign: null })).toEqual([
      districtBoard(chennai),
      districtBoard(madurai),
    ]);
    expect(boardsFor({ districts: ['Chennai'], campaign: 'c1' })).toEqual([campaignBoard('c1', chennai)]);
  });

  it('sums boards per referrer and ranks by approved recruits only', () => {
    const merged = mergeBoards(
      [
        { referrer: 'a', brought: 5, approved: 1 },
        { referrer: 'b', brought: 1, approved: 1 },
        { referrer: 'a', brought: 2, approved: 1 },
        { referrer: 'c', brought: 9, approved: 0 },
        { referrer: 'd', brought: 3, approved: 1 },
      ],
      2,
    );
    expect(merged).toEqual([
      { referrer: 'a', brought: 7, approved: 2 },
      { referrer: 'd', brought: 3, approved: 1 },
    ]);
  });

  it('tiles the referred applications within the statuses, districts, days and campaign', () => {
    const counts = (entries: [number, number][]) => new Map(entries);
    const top = [
      {
        day: '2026-03-01',
        campaign: 'c1',
        counts: counts([
          [REFERRED_OFFSET + statusDistrictIndex('approved', chennai), 2],
          [REFERRED_OFFSET + statusDistrictIndex('pending', madurai), 3],
          [statusDistrictIndex('pending', madurai), 7],
        ]),
      },
      {
        day: '2026-03-02',
        campaign: NO_CAMPAIGN,
        counts: counts([[REFERRED_OFFSET + statusDistrictIndex('rejected', chennai), 1]]),
      },
    ];
    const all = reportDistricts.map((_, i) => i);
    const every = () => true;
    const statuses = ['pending', 'under_review', 'approved', 'rejected'] as const;
    expect(referralFigures(top, { statuses, campaign: null }, all, every)).toEqual({ applications: 6, approved: 2 });
    expect(referralFigures(top, { statuses, campaign: 'c1' }, all, every)).toEqual({ applications: 5, approved: 2 });
    expect(referralFigures(top, { statuses: ['pending'], campaign: null }, [madurai], every)).toEqual({
      applications: 3,
      approved: 0,
    });
    expect(referralFigures(top, { statuses, campaign: null }, all, (d) => d === '2026-03-02')).toEqual({
      applications: 1,
      approved: 0,
    });
  });
});
