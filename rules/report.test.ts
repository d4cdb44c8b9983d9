import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { istDay } from './ist';
import { issuePath } from './schema';
import {
  addDays,
  ageBucket,
  ageBucketOn,
  birthDatesCrossingBetween,
  birthDatesCrossingOn,
  CELLS_PER_DAY,
  dayCount,
  daysBetween,
  reportDistricts,
  reportFiltersQuery,
  reportFiltersSchema,
  reportRowsQuerySchema,
  reportSummarySchema,
} from './report';
import { ageCorrection, CounterDelta, countedCell, emptyCells, foldReport, type DayCounters } from './report-counters';
import { istDayOfTimestamp } from './ist';

describe('IST days of timestamps', () => {
  it('puts 18:30 UTC on the next IST day and 18:29:59.999 on the same one', () => {
    expect(istDayOfTimestamp('2026-03-01T18:29:59.999Z')).toBe('2026-03-01');
    expect(istDayOfTimestamp('2026-03-01T18:30:00.000Z')).toBe('2026-03-02');
    expect(istDayOfTimestamp('2026-12-31T18:30:00.000Z')).toBe('2027-01-01');
    expect(istDayOfTimestamp('2026-03-01T05:00:00+05:30')).toBe('2026-03-01');
    expect(istDay(new Date('2026-03-01T18:30:00.000Z'))).toBe('2026-03-02');
  });
  it('has no day for what is not a timestamp', () => {
    for (const value of [undefined, null, 12, '', 'yesterday', '2026-13-01T00:00:00Z', '01/03/2026']) {
      expect(istDayOfTimestamp(value)).toBeUndefined();
    }
  });
  it('counts and lists days across month and year ends', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(dayCount('2026-12-30', '2027-01-02')).toBe(4);
    expect(dayCount('2026-01-02', '2026-01-01')).toBe(0);
    expect(daysBetween('2026-12-30', '2027-01-01')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
  });
});

describe('age buckets', () => {
  it('has the spec buckets, by whole years', () => {
    expect([0, 17, 18, 24, 25, 34, 35, 44, 45, 54, 55, 99].map(ageBucket)).toEqual([
      '<18',
      '<18',
      '18-24',
      '18-24',
      '25-34',
      '25-34',
      '35-44',
      '35-44',
      '45-54',
      '45-54',
      '55+',
      '55+',
    ]);
    expect(ageBucket(-3)).toBe('<18');
  });
  it('moves on the birthday, not the day before', () => {
    expect(ageBucketOn('2008-03-11', '2026-03-10')).toBe('<18');
    expect(ageBucketOn('2008-03-11', '2026-03-11')).toBe('18-24');
    expect(ageBucketOn('2001-03-11', '2026-03-10')).toBe('18-24');
    expect(ageBucketOn('2001-03-11', '2026-03-11')).toBe('25-34');
  });
  it('ages someone born on 29 February on 1 March in common years, on 29 February in leap years', () => {
    expect(ageBucketOn('2008-02-29', '2026-02-28')).toBe('<18');
    expect(ageBucketOn('2008-02-29', '2026-03-01')).toBe('18-24');
    expect(ageBucketOn('2004-02-29', '2028-02-28')).toBe('18-24');
    expect(ageBucketOn('2004-02-29', '2028-02-29')).toBe('18-24');
    expect(ageBucketOn('2003-02-28', '2028-02-28')).toBe('25-34');
    expect(ageBucketOn('2003-02-29', '2028-02-29')).toBe('Unknown'); // not a date
  });
  it('is Unknown for a missing or invalid date of birth', () => {
    for (const value of [undefined, null, '', '1990-02-30', '1990/01/01', '01-01-1990', 19900101]) {
      expect(ageBucketOn(value, '2026-03-10')).toBe('Unknown');
    }
  });
  it('lists the birth dates that cross a boundary on a day, 29 February included', () => {
    expect(birthDatesCrossingOn('2026-03-11')).toEqual([
      '2008-03-11',
      '2001-03-11',
      '1991-03-11',
      '1981-03-11',
      '1971-03-11',
    ]);
    // 2026 is a common year: those born 29 Feb 2008 (18), 1992 (34 -> no), 1972 (54 -> no)...
    expect(birthDatesCrossingOn('2026-03-01')).toEqual([
      '2008-03-01',
      '2008-02-29',
      '2001-03-01',
      '1991-03-01',
      '1981-03-01',
      '1971-03-01',
    ]);
    // No boundary age is a multiple of 4: nobody born on 29 February crosses one on a 29 February.
    expect(birthDatesCrossingOn('2028-02-29')).toEqual([]);
    expect(birthDatesCrossingOn('2028-03-01')).toEqual([
      '2010-03-01',
      '2003-03-01',
      '1993-03-01',
      '1983-03-01',
      '1973-03-01',
    ]);
    expect(birthDatesCrossingBetween('2026-03-10', '2026-03-11')).toEqual(birthDatesCrossingOn('2026-03-11'));
    expect(birthDatesCrossingBetween('2026-03-11', '2026-03-11')).toEqual([]);
  });
  it('finds every bucket change of a year on the listed days (brute force over birth dates)', () => {
    const births = daysBetween('1965-01-01', '2012-12-31').filter((_, i) => i % 7 === 0 || _.endsWith('02-29'));
    for (const day of daysBetween('2027-02-20', '2027-03-05').concat(daysBetween('2028-02-25', '2028-03-02'))) {
      const listed = new Set(birthDatesCrossingOn(day));
      for (const birth of births) {
        const changed = ageBucketOn(birth, addDays(day, -1)) !== ageBucketOn(birth, day);
        expect(listed.has(birth), `${birth} on ${day}`).toBe(changed);
      }
    }
  });
});

describe('what an application counts as', () => {
  const base = {
    application_status: 'pending',
    submitted_at: '2026-03-01T18:30:00.000Z',
    revenue_district: 'Madurai',
    gender: 'Female',
    date_of_birth: '2008-03-11',
    is_already_member: true,
  };
  it('takes the IST day, the status, the district, gender, member and age bucket', () => {
    expect(countedCell(base, '2026-03-10')).toEqual({
      day: '2026-03-02',
      status: 'pending',
      district: 'Madurai',
      gender: 'Female',
      member: 'Yes',
      age: '<18',
      birthDate: '2008-03-11',
    });
  });
  it('counts missing values as Unknown (or No for membership)', () => {
    expect(
      countedCell({ application_status: 'approved', submitted_at: '2026-03-01T00:00:00.000Z' }, '2026-03-10'),
    ).toEqual({
      day: '2026-03-01',
      status: 'approved',
      district: 'Unknown',
      gender: 'Unknown',
      member: 'No',
      age: 'Unknown',
    });
    expect(
      countedCell({ ...base, revenue_district: 'Atlantis', gender: 'male', is_already_member: 'true' }, '2026-03-10'),
    ).toMatchObject({
      district: 'Unknown',
      gender: 'Unknown',
      member: 'No',
    });
  });
  it('counts nothing without one of the four statuses or a submission time', () => {
    expect(countedCell({ ...base, application_status: 'archived' }, '2026-03-10')).toBeUndefined();
    expect(countedCell({ ...base, submitted_at: undefined }, '2026-03-10')).toBeUndefined();
  });
});

describe('counter changes', () => {
  const cell = countedCell(
    {
      application_status: 'pending',
      submitted_at: '2026-03-01T10:00:00.000Z',
      revenue_district: 'Chennai',
      gender: 'Male',
      date_of_birth: '2000-01-01',
    },
    '2026-03-10',
  )!;
  it('adds three counters of one cell for an insert and takes them back for a removal', () => {
    const insert = CounterDelta.between(undefined, cell);
    expect([...insert.nonZero().get('pending#2026-03-01')!.values()]).toEqual([1, 1, 1]);
    const both = new CounterDelta().merge(insert).merge(CounterDelta.between(cell, undefined));
    expect(both.nonZero().size).toBe(0);
    expect(both.nonZeroStatuses().size).toBe(0);
  });
  it('moves every counter to the new status row on a status change', () => {
    const delta = CounterDelta.between(cell, { ...cell, status: 'approved' });
    expect([...delta.nonZero().keys()].sort()).toEqual(['approved#2026-03-01', 'pending#2026-03-01']);
    expect(Object.fromEntries(delta.nonZeroStatuses())).toEqual({ pending: -1, approved: 1 });
  });
  it('moves only the age counter when the bucket changes', () => {
    const delta = CounterDelta.between(cell, { ...cell, age: '35-44' });
    expect([...delta.nonZero().get('pending#2026-03-01')!.values()].sort()).toEqual([-1, 1]);
    expect(delta.nonZeroStatuses().size).toBe(0);
  });
});

describe('filters', () => {
  it('defaults to every status and district, no bounds', () => {
    expect(v.parse(reportFiltersSchema, {})).toEqual({
      from: null,
      to: null,
      statuses: ['pending', 'under_review', 'approved', 'rejected'],
      districts: [],
    });
  });
  it('reads comma lists, in canonical order, without duplicates', () => {
    expect(
      v.parse(reportFiltersSchema, { status: 'approved, pending,approved', district: 'Madurai,Chennai' }),
    ).toMatchObject({
      statuses: ['pending', 'approved'],
      districts: ['Chennai', 'Madurai'],
    });
  });
  it('answers field codes for bad input', () => {
    const codes = (input: Record<string, string>) => {
      const result = v.safeParse(reportFiltersSchema, input);
      return result.success ? {} : Object.fromEntries(result.issues.map((i) => [issuePath(i), i.message]));
    };
    expect(codes({ from: '2026-02-30' })).toEqual({ from: 'INVALID_DATE' });
    // A bad day beside a good one is that day's error, not a range compared (a 500 once).
    expect(codes({ from: '2026-01-01', to: '59' })).toEqual({ to: 'INVALID_DATE' });
    expect(codes({ from: 'x', to: 'y' })).toEqual({ from: 'INVALID_DATE', to: 'INVALID_DATE' });
    expect(codes({ from: '2026-03-02', to: '2026-03-01' })).toEqual({ to: 'RANGE_INVALID' });
    expect(codes({ from: '2025-01-01', to: '2026-03-01' })).toEqual({ from: 'RANGE_TOO_LONG' });
    expect(codes({ status: 'pending,archived' })).toEqual({ status: 'INVALID_STATUS' });
    expect(codes({ district: 'Atlantis' })).toEqual({ district: 'INVALID_DISTRICT' });
    expect(v.safeParse(reportRowsQuerySchema, { limit: '0' }).success).toBe(false);
    expect(v.safeParse(reportRowsQuerySchema, { limit: '501' }).success).toBe(false);
    expect(v.safeParse(reportRowsQuerySchema, { cursor: 'a b' }).success).toBe(false);
    expect(v.parse(reportRowsQuerySchema, {})).toMatchObject({ limit: 50 });
  });
  it('round-trips through query parameters', () => {
    const filters = v.parse(reportFiltersSchema, {
      from: '2026-03-01',
      to: '2026-03-31',
      status: 'approved',
      district: 'Nilgiris,Chennai',
    });
    const query = Object.fromEntries(reportFiltersQuery(filters));
    expect(v.parse(reportFiltersSchema, query)).toEqual(filters);
  });
});

// The day rows both folding blocks below read: two days of Chennai and one Unknown row.
const row = (day: string, status: DayCounters['status'], fill: (cells: number[][]) => void): DayCounters => {
  const cells = emptyCells();
  fill(cells);
  return { day, status, cells };
};
const chennai = reportDistricts.indexOf('Chennai');
const unknown = reportDistricts.indexOf('Unknown');
const days = [
  // Chennai: 2 Male members aged 18-24; Unknown district: 1 Female non-member, age Unknown.
  row('2026-03-01', 'pending', (c) => {
    c[chennai] = [2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0];
    c[unknown] = [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1];
  }),
  row('2026-03-03', 'approved', (c) => {
    c[chennai] = [0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0];
  }),
];
const filters = v.parse(reportFiltersSchema, { from: '2026-03-01', to: '2026-03-03' });

describe('folding day rows into the report: figures and filters', () => {
  it('sums every figure, with a point for every day of the range', () => {
    const report = foldReport({
      asOf: '2026-03-10',
      filters,
      range: { from: '2026-03-01', to: '2026-03-03' },
      days,
      corrections: [],
    });
    expect(v.parse(reportSummarySchema, report)).toEqual(report);
    expect(report).toMatchObject({
      total: 4,
      byStatus: { pending: 3, under_review: 0, approved: 1, rejected: 0 },
      byDistrict: [
        { district: 'Chennai', count: 3 },
        { district: 'Unknown', count: 1 },
      ],
      byGender: { Male: 2, Female: 1, Unknown: 1 },
      byMember: { Yes: 2, No: 2 },
      byAge: { '<18': 1, '18-24': 2, '25-34': 0, '35-44': 0, '45-54': 0, '55+': 0, Unknown: 1 },
    });
    expect(report.series.map((p) => [p.day, p.total, p.byStatus.approved])).toEqual([
      ['2026-03-01', 3, 0],
      ['2026-03-02', 0, 0],
      ['2026-03-03', 1, 1],
    ]);
    expect(report.topDistricts).toEqual(report.byDistrict);
  });
  it('applies the district and status filters to every figure', () => {
    const only = v.parse(reportFiltersSchema, {
      from: '2026-03-01',
      to: '2026-03-03',
      district: 'Chennai',
      status: 'pending',
    });
    const report = foldReport({
      asOf: '2026-03-10',
      filters: only,
      range: { from: '2026-03-01', to: '2026-03-03' },
      days,
      corrections: [],
    });
    expect(report).toMatchObject({
      total: 2,
      byGender: { Male: 2, Female: 0, Unknown: 0 },
      byMember: { Yes: 2, No: 0 },
    });
    expect(report.series.map((p) => p.total)).toEqual([2, 0, 0]);
  });
  it('moves corrected ages inside the filters only', () => {
    const corrections = [
      {
        day: '2026-03-01',
        status: 'pending' as const,
        district: 'Chennai',
        from: '18-24' as const,
        to: '25-34' as const,
      },
      {
        day: '2026-03-01',
        status: 'pending' as const,
        district: 'Madurai',
        from: '18-24' as const,
        to: '25-34' as const,
      },
      {
        day: '2026-02-01',
        status: 'pending' as const,
        district: 'Chennai',
        from: '18-24' as const,
        to: '25-34' as const,
      },
    ];
    const only = v.parse(reportFiltersSchema, { from: '2026-03-01', to: '2026-03-03', district: 'Chennai' });
    const report = foldReport({
      asOf: '2026-03-10',
      filters: only,
      range: { from: '2026-03-01', to: '2026-03-03' },
      days,
      corrections,
    });
    expect(report.byAge).toMatchObject({ '18-24': 1, '25-34': 1 });
  });
});

describe('folding day rows into the report: corrections, empty and top districts', () => {
  it('derives a correction from a counted cell', () => {
    const cell = countedCell(
      { application_status: 'pending', submitted_at: '2026-03-01T10:00:00.000Z', date_of_birth: '2008-03-11' },
      '2026-03-10',
    )!;
    expect(ageCorrection(cell, '2026-03-10')).toBeUndefined();
    expect(ageCorrection(cell, '2026-03-11')).toMatchObject({ from: '<18', to: '18-24', district: 'Unknown' });
  });
  it('has an empty series without a range, and rows of a fixed size', () => {
    const report = foldReport({
      asOf: '2026-03-10',
      filters: v.parse(reportFiltersSchema, {}),
      range: null,
      days: [],
      corrections: [],
    });
    expect(report).toMatchObject({ total: 0, series: [], byDistrict: [], topDistricts: [] });
    expect(emptyCells().flat()).toHaveLength(CELLS_PER_DAY);
    expect(reportDistricts).toHaveLength(39);
  });
  it('keeps ten top districts, most first, ties by name', () => {
    const many = row('2026-03-01', 'pending', (c) => {
      reportDistricts.forEach((_, i) => (c[i] = [i % 5, 0, 0, i % 5, 0, 0, 0, 0, 0, 0, 0, i % 5]));
    });
    const report = foldReport({
      asOf: '2026-03-10',
      filters,
      range: { from: '2026-03-01', to: '2026-03-03' },
      days: [many],
      corrections: [],
    });
    expect(report.topDistricts.map((d) => d.count)).toEqual([4, 4, 4, 4, 4, 4, 4, 3, 3, 3]);
    const fours = report.topDistricts.slice(0, 7).map((d) => d.district);
    expect(fours).toEqual([...fours].sort((a, b) => a.localeCompare(b)));
    expect(report.byDistrict).toHaveLength(31);
  });
});
