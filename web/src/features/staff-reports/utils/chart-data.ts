import { applicationStatuses, type ApplicationStatus } from '../../../../../rules/application-values';
import { ageBuckets, genderKeys, memberKeys, type ReportSummary } from '../../../../../rules/report';

// The report API's figures shaped for the charts (and their text tables). Labels are
// left to the caller (translated); these functions only choose and order the numbers.

export const statusColours: Record<ApplicationStatus, string> = {
  pending: '#b45309',
  under_review: '#1d4ed8',
  approved: '#15803d',
  rejected: '#b91c1c',
};

export interface Slice {
  readonly id: string;
  readonly value: number;
}

export interface DayPoint {
  readonly day: string;
  readonly total: number;
  readonly byStatus: Readonly<Record<ApplicationStatus, number>>;
}

export const ageData = (s: ReportSummary): Slice[] => ageBuckets.map((id) => ({ id, value: s.byAge[id] }));
export const genderData = (s: ReportSummary): Slice[] => genderKeys.map((id) => ({ id, value: s.byGender[id] }));
export const memberData = (s: ReportSummary): Slice[] => memberKeys.map((id) => ({ id, value: s.byMember[id] }));
export const statusData = (s: ReportSummary): Slice[] =>
  applicationStatuses.map((id) => ({ id, value: s.byStatus[id] }));

/** The top ten districts, most first (as the API orders them). */
export const topDistrictData = (s: ReportSummary): Slice[] =>
  s.topDistricts.slice(0, 10).map((d) => ({ id: d.district, value: d.count }));

export const seriesData = (s: ReportSummary): DayPoint[] => s.series;

/** "Top campaigns" (issue 19): applications and approvals per campaign, most first (as the API orders them). */
export const topCampaignData = (s: ReportSummary): { id: string; applications: number; approved: number }[] =>
  (s.topCampaigns ?? []).map((c) => ({ id: c.campaign, applications: c.applications, approved: c.approved }));

export const hasAny = (slices: readonly { value: number }[]): boolean => slices.some((d) => d.value > 0);
export const seriesHasAny = (points: readonly DayPoint[]): boolean => points.some((p) => p.total > 0);

/**
 * What a pie draws: its slices when any is non-zero; otherwise one neutral slice of 1
 * (an empty ring), so that the three pies always render, legend included.
 */
export function pieSlices(slices: readonly Slice[]): { slices: Slice[]; empty: boolean } {
  if (hasAny(slices)) return { slices: slices.filter((d) => d.value > 0), empty: false };
  return { slices: [{ id: '__empty', value: 1 }], empty: true };
}

/** Rows of a horizontal bar chart: nivo draws the first key at the bottom, so the most is put last. */
export const horizontalRows = (slices: readonly Slice[]): Slice[] => [...slices].reverse();

/** One row per day for the stacked bar: { day, pending, under_review, approved, rejected }. */
export function stackedDailyRows(points: readonly DayPoint[]): ({ day: string } & Record<ApplicationStatus, number>)[] {
  return points.map((p) => ({ day: p.day, ...p.byStatus }));
}

/** Every n-th tick of a day axis, so that a long range stays readable (about `max` labels). */
export function dayTicks(days: readonly string[], max = 10): string[] {
  if (days.length <= max) return [...days];
  const step = Math.ceil(days.length / max);
  return days.filter((_, i) => i % step === 0);
}
