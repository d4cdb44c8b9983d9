import { describe, expect, it } from 'vitest';
import { applicationStatuses } from '../../rules/application';
import { COUNTERS_PER_CELL, reportDistricts, type ReportFilters } from '../../rules/report';
import { everyDistrict, type StaffScope } from '../../rules/staff-scope';
import type { RollupsReader } from '../adapters/rollups-reader';
import { districtStatsSummary, emptyReport } from './rollups-report';
import { districtsOf, exportScopeOf, scopeApplicationFilters, scopeReportFilters } from './scoped-filters';

const coordinator: StaffScope = { districts: ['Chennai', 'Tiruvallur'] };
const report = (districts: string[]): ReportFilters => ({
  from: '2026-11-01',
  to: '2026-11-20',
  statuses: applicationStatuses,
  districts,
});

describe("the dashboard's filters within a scope (issue 17)", () => {
  it('leaves an unscoped caller’s filters as asked', () => {
    const filters = { district: 'Madurai', status: 'pending' as const };
    expect(scopeApplicationFilters(everyDistrict, filters)).toBe(filters);
    expect(districtsOf(filters)).toEqual(['Madurai']);
    expect(districtsOf({})).toEqual([]);
  });

  it('reads every district of the scope when none is asked for, and never Unknown', () => {
    const scoped = scopeApplicationFilters(coordinator, { q: 'kumar' });
    expect(scoped).toEqual({ q: 'kumar', districts: ['Chennai', 'Tiruvallur'] });
    expect(districtsOf(scoped!)).toEqual(['Chennai', 'Tiruvallur']);
  });

  it('keeps a district of the scope, and answers nothing for one outside it', () => {
    expect(districtsOf(scopeApplicationFilters(coordinator, { district: 'Tiruvallur' })!)).toEqual(['Tiruvallur']);
    expect(scopeApplicationFilters(coordinator, { district: 'Madurai' })).toBeUndefined();
  });
});

describe("the report's filters within a scope", () => {
  it('intersects the districts asked for with the scope', () => {
    expect(scopeReportFilters(coordinator, report([]))?.districts).toEqual(['Chennai', 'Tiruvallur']);
    expect(scopeReportFilters(coordinator, report(['Madurai', 'Chennai']))?.districts).toEqual(['Chennai']);
    expect(scopeReportFilters(coordinator, report(['Madurai']))).toBeUndefined();
    expect(scopeReportFilters(everyDistrict, report([]))?.districts).toEqual([]);
  });

  it("names an export's scope by district ids, or 'all'", () => {
    expect(exportScopeOf(coordinator)).toEqual(['chennai', 'tiruvallur']);
    expect(exportScopeOf(everyDistrict)).toBe('all');
  });
});

// A store with day rows of two districts and a totals item that disagrees with them:
// a scoped figure that came from the totals item would show.
function store() {
  const cell = (male: number) => {
    const c = new Array<number>(COUNTERS_PER_CELL).fill(0);
    c[0] = male;
    return c;
  };
  const cells = (chennai: number, madurai: number) =>
    reportDistricts.map((d) => (d === 'Chennai' ? cell(chennai) : d === 'Madurai' ? cell(madurai) : cell(0)));
  const asked: string[][] = [];
  const reader = {
    getMeta: () => Promise.resolve({ current: '1', agedThrough: '2026-11-20' }),
    readTotals: () =>
      Promise.resolve({
        byStatus: { pending: 1000, under_review: 1000, approved: 1000, rejected: 1000 },
        firstDay: '2026-11-01',
        lastDay: '2026-11-20',
      }),
    readDays: (_gen: string, statuses: readonly string[], from: string, to: string) => {
      asked.push([from, to]);
      return Promise.resolve(
        [
          { day: '2026-11-02', status: 'pending' as const, cells: cells(3, 5) },
          { day: '2026-11-10', status: 'approved' as const, cells: cells(2, 7) },
        ].filter((row) => statuses.includes(row.status)),
      );
    },
    statesBornOn: () => Promise.resolve([]),
  } as unknown as RollupsReader;
  return { reader, asked };
}

describe("a scoped caller's dashboard totals", () => {
  const now = new Date('2026-11-21T06:00:00Z');

  it("come from their districts' rows over every day with data, not the totals item", async () => {
    const { reader, asked } = store();
    expect(await districtStatsSummary(reader, ['Chennai'], now)).toEqual({
      total: 5,
      pending: 3,
      under_review: 0,
      approved: 2,
      rejected: 0,
    });
    expect(asked).toEqual([['2026-11-01', '2026-11-20']]);
    expect((await districtStatsSummary(reader, ['Chennai', 'Madurai'], now)).total).toBe(17);
  });

  it('are zeros before any rollup exists', async () => {
    const reader = { getMeta: () => Promise.resolve(undefined) } as unknown as RollupsReader;
    expect(await districtStatsSummary(reader, ['Chennai'], now)).toEqual({
      total: 0,
      pending: 0,
      under_review: 0,
      approved: 0,
      rejected: 0,
    });
  });

  it('an empty report covers the days any report would, with zeros, and reads no day row', async () => {
    const { reader, asked } = store();
    const summary = await emptyReport(reader, { ...report(['Madurai']), from: null }, now);
    expect(summary.range).toEqual({ from: '2026-11-01', to: '2026-11-20' });
    expect(summary.series).toHaveLength(20);
    expect({ total: summary.total, byDistrict: summary.byDistrict }).toEqual({ total: 0, byDistrict: [] });
    expect(asked).toEqual([]);
  });
});
