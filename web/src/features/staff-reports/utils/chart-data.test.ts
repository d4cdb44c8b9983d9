import { describe, expect, it } from 'vitest';
import type { ReportSummary } from '../../../../../rules/report';
import {
  ageData,
  dayTicks,
  genderData,
  hasAny,
  horizontalRows,
  memberData,
  pieSlices,
  seriesHasAny,
  stackedDailyRows,
  statusData,
  topDistrictData,
} from './chart-data';
import { districtLabel, formatShortDay } from '../../../lib/staff-format';

const zero = { pending: 0, under_review: 0, approved: 0, rejected: 0 };

function summary(over: Partial<ReportSummary> = {}): ReportSummary {
  return {
    asOf: '2026-11-21',
    filters: { from: null, to: null, statuses: ['pending', 'under_review', 'approved', 'rejected'], districts: [] },
    range: { from: '2026-11-01', to: '2026-11-02' },
    total: 0,
    byStatus: zero,
    byDistrict: [],
    byGender: { Male: 0, Female: 0, Unknown: 0 },
    byMember: { Yes: 0, No: 0 },
    byAge: { '<18': 0, '18-24': 0, '25-34': 0, '35-44': 0, '45-54': 0, '55+': 0, Unknown: 0 },
    series: [
      { day: '2026-11-01', total: 0, byStatus: zero },
      { day: '2026-11-02', total: 0, byStatus: zero },
    ],
    topDistricts: [],
    ...over,
  };
}

describe('chart data', () => {
  it('orders the age buckets as the spec does, Unknown last', () => {
    const s = summary({ byAge: { '<18': 1, '18-24': 5, '25-34': 2, '35-44': 0, '45-54': 0, '55+': 3, Unknown: 4 } });
    expect(ageData(s).map((d) => d.id)).toEqual(['<18', '18-24', '25-34', '35-44', '45-54', '55+', 'Unknown']);
    expect(ageData(s).map((d) => d.value)).toEqual([1, 5, 2, 0, 0, 3, 4]);
  });

  it('gives the pies their fixed slices', () => {
    const s = summary({
      byGender: { Male: 2, Female: 3, Unknown: 1 },
      byMember: { Yes: 4, No: 2 },
      byStatus: { pending: 1, under_review: 2, approved: 3, rejected: 0 },
    });
    expect(genderData(s)).toEqual([
      { id: 'Male', value: 2 },
      { id: 'Female', value: 3 },
      { id: 'Unknown', value: 1 },
    ]);
    expect(memberData(s).map((d) => d.id)).toEqual(['Yes', 'No']);
    expect(statusData(s).map((d) => d.value)).toEqual([1, 2, 3, 0]);
  });

  it('draws an all-zero pie as one neutral slice (it always renders)', () => {
    expect(pieSlices(genderData(summary()))).toEqual({ slices: [{ id: '__empty', value: 1 }], empty: true });
    const drawn = pieSlices([
      { id: 'Yes', value: 0 },
      { id: 'No', value: 2 },
    ]);
    expect(drawn).toEqual({ slices: [{ id: 'No', value: 2 }], empty: false });
  });

  it('takes the top ten districts, most first, and reverses them for a horizontal bar', () => {
    const top = Array.from({ length: 10 }, (_, i) => ({ district: `D${i}`, count: 20 - i }));
    const s = summary({ topDistricts: top });
    expect(topDistrictData(s)).toHaveLength(10);
    expect(topDistrictData(s)[0]).toEqual({ id: 'D0', value: 20 });
    expect(horizontalRows(topDistrictData(s))[9]).toEqual({ id: 'D0', value: 20 });
  });

  it('knows when there is nothing to draw', () => {
    const s = summary();
    expect(hasAny(ageData(s))).toBe(false);
    expect(seriesHasAny(s.series)).toBe(false);
    expect(hasAny([{ value: 1 }])).toBe(true);
  });

  it('shapes the stacked daily bars, one stack per status', () => {
    const s = summary({
      series: [{ day: '2026-11-01', total: 3, byStatus: { pending: 1, under_review: 0, approved: 2, rejected: 0 } }],
    });
    expect(stackedDailyRows(s.series)).toEqual([
      { day: '2026-11-01', pending: 1, under_review: 0, approved: 2, rejected: 0 },
    ]);
  });

  it('thins the day ticks of a long range', () => {
    const days = Array.from({ length: 100 }, (_, i) => `d${i}`);
    expect(dayTicks(days).length).toBeLessThanOrEqual(10);
    expect(dayTicks(days.slice(0, 5))).toEqual(days.slice(0, 5));
  });

  it('formats days day first, en-IN and ta-IN (the full month name in Tamil)', () => {
    expect(formatShortDay('2026-11-21', 'en')).toBe('21 Nov');
    expect(formatShortDay('2026-11-21', 'ta')).toBe('21 நவம்பர்');
  });

  it('names districts in the screen language, Unknown translated', () => {
    expect(districtLabel('Chennai', 'en', 'Unknown')).toBe('Chennai');
    expect(districtLabel('Chennai', 'ta', 'குறிப்பிடப்படவில்லை')).toMatch(/[\u0B80-\u0BFF]/);
    expect(districtLabel('Unknown', 'ta', 'குறிப்பிடப்படவில்லை')).toBe('குறிப்பிடப்படவில்லை');
    expect(districtLabel(null, 'en', 'Unknown')).toBe('Unknown');
  });
});
