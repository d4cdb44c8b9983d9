import { applicationStatuses, type ApplicationStatus } from './application';
import { reportDistricts, type ReportFilters } from './report';

// Referrals in the rollups (issue 19), the server's side: a member's referral code brings
// applications (`referrer_id` on the recruit's application). Two kinds of counters:
//
// - the "Referrals" tile: on the Top rows of rules/report-counters.ts (one per day and
//   campaign, `NO_CAMPAIGN` for a recruit who came through none), a second block of
//   counters per status and district, so it follows every filter of the report at no
//   extra read;
// - the leaderboards: per referrer, how many they brought (any status) and how many of
//   those are approved, on boards of every recruit (`all`), of one district's recruits,
//   of one campaign's and of one campaign's in one district. A board is ranked by its
//   approved count (an index), so its first ten cost the same whatever N.

/** The Top row of recruits who came through no campaign (not a campaign id: `~` is not allowed in one). */
export const NO_CAMPAIGN = '~';

/** Index of a (status, district) pair in a Top row's block. */
export const statusDistrictIndex = (status: ApplicationStatus, district: number) =>
  applicationStatuses.indexOf(status) * reportDistricts.length + district;

/** Where a Top row's "referred" block starts: after the block of every application. */
export const REFERRED_OFFSET = applicationStatuses.length * reportDistricts.length;

// ---------------------------------------------------------------------------
// Leaderboards

const BOARD_PREFIX = 'L#';
/** A board item's counters (a CounterDelta key's indexes). */
export const BROUGHT = 0;
export const APPROVED = 1;

/** The board of every recruit; of one district's (`d:<district index>`); of a campaign's; of both. */
export const ALL_BOARD = 'all';
export const districtBoard = (district: number) => `d:${district}`;
export const campaignBoard = (campaign: string, district?: number) =>
  district === undefined ? `c:${campaign}` : `c:${campaign}:${district}`;

/** `L#<board>#<referrer>`: one referrer's counters on one board, a CounterDelta key. */
export const boardKey = (board: string, referrer: string) => `${BOARD_PREFIX}${board}#${referrer}`;
export const isBoardKey = (key: string) => key.startsWith(BOARD_PREFIX);
export function parseBoardKey(key: string): { board: string; referrer: string } {
  const rest = key.slice(BOARD_PREFIX.length);
  const split = rest.lastIndexOf('#');
  return { board: rest.slice(0, split), referrer: rest.slice(split + 1) };
}

/** The boards a recruit counts on. */
export const boardsOf = (district: number, campaign?: string): string[] => [
  ALL_BOARD,
  districtBoard(district),
  ...(campaign ? [campaignBoard(campaign), campaignBoard(campaign, district)] : []),
];

/**
 * The boards that together hold what the filters select: the one of every recruit (or a
 * campaign's) when no district is named, else one per district. A scoped staff member's
 * filters always name their districts (lambdas/lib/scoped-filters.ts).
 */
export function boardsFor(filters: Pick<ReportFilters, 'districts' | 'campaign'>): string[] {
  const rows = filters.districts.map((d) => reportDistricts.indexOf(d)).filter((i) => i >= 0);
  if (filters.districts.length === 0) return [filters.campaign ? campaignBoard(filters.campaign) : ALL_BOARD];
  return rows.map((i) => (filters.campaign ? campaignBoard(filters.campaign, i) : districtBoard(i)));
}

/** One referrer's counts on one board. */
export interface BoardEntry {
  readonly referrer: string;
  readonly brought: number;
  readonly approved: number;
}

/** Several boards' entries summed per referrer, most approved first (ties: most brought, then id), `limit` of them. */
export function mergeBoards(entries: readonly BoardEntry[], limit: number): BoardEntry[] {
  const sums = new Map<string, { brought: number; approved: number }>();
  for (const e of entries) {
    const sum = sums.get(e.referrer) ?? { brought: 0, approved: 0 };
    sum.brought += e.brought;
    sum.approved += e.approved;
    sums.set(e.referrer, sum);
  }
  return [...sums]
    .map(([referrer, s]) => ({ referrer, ...s }))
    .filter((e) => e.approved > 0)
    .sort((a, b) => b.approved - a.approved || b.brought - a.brought || (a.referrer < b.referrer ? -1 : 1))
    .slice(0, limit);
}

// ---------------------------------------------------------------------------
// The tile

/** The referred block of Top rows, as foldReport gives them. */
interface ReferredRow {
  readonly day: string;
  readonly campaign: string;
  readonly counts: ReadonlyMap<number, number>;
}

/** Applications that came through a member's referral within the filters, and how many of them are approved. */
export function referralFigures(
  top: readonly ReferredRow[],
  filters: Pick<ReportFilters, 'statuses' | 'campaign'>,
  rows: readonly number[],
  inRange: (day: string) => boolean,
): { applications: number; approved: number } {
  const sum = { applications: 0, approved: 0 };
  for (const { day, campaign, counts } of top) {
    if (!inRange(day) || (filters.campaign && campaign !== filters.campaign)) continue;
    for (const status of filters.statuses) {
      for (const row of rows) {
        const n = counts.get(REFERRED_OFFSET + statusDistrictIndex(status, row)) ?? 0;
        sum.applications += n;
        if (status === 'approved') sum.approved += n;
      }
    }
  }
  return sum;
}
