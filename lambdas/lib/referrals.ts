import type { ReportFilters, ReportSummary } from '../../rules/report';
import { ALL_BOARD, type BoardEntry, boardsFor, mergeBoards } from '../../rules/report-referrals';
import { inScope, type StaffScope } from '../../rules/staff-scope';
import type { RollupsReader } from '../adapters/rollups-reader';

// Referrals as staff read them (issue 19), from the rollups' boards
// (rules/report-referrals.ts): one member's counts for the details row, and the
// leaderboard of the Reports page.

/** The leaderboard's length. */
const TOP_REFERRERS = 10;
/** Each board's first referrers looked at when several boards are summed (see topReferrers). */
const CANDIDATES_PER_BOARD = 20;

type Reader = Pick<RollupsReader, 'getMeta' | 'readBoard' | 'readBoardEntries'>;

/** How many applications a member's referral link brought, and how many of them are approved. */
export async function referrerCounts(rollups: Reader, id: string): Promise<{ brought: number; approved: number }> {
  const meta = await rollups.getMeta(false);
  const [entry] = meta ? await rollups.readBoardEntries(meta.current, [ALL_BOARD], [id]) : [];
  return { brought: entry?.brought ?? 0, approved: entry?.approved ?? 0 };
}

/** The referrers' names and districts, for the leaderboard (absent: erased since). */
export type ReferrerNames = (ids: readonly string[]) => Promise<Map<string, { name: string; district?: string }>>;

/**
 * The members who brought the most approved members, within the filters' districts and
 * campaign (of all time): each board's first CANDIDATES_PER_BOARD by its rank index (one
 * board when the filters name no district); with several, the exact counts of those
 * candidates on every board, summed. A referrer outside every board's first twenty could
 * in theory sum to more than one inside: the list then misses them (docs/PRODUCT.md,
 * "Referrals"). Another district's member is shown without id or name.
 */
export async function topReferrers(
  rollups: Reader,
  names: ReferrerNames,
  filters: Pick<ReportFilters, 'districts' | 'campaign'>,
  scope: StaffScope,
): Promise<NonNullable<ReportSummary['topReferrers']>> {
  const meta = await rollups.getMeta(false);
  const boards = boardsFor(filters);
  if (!meta || boards.length === 0) return [];
  const firsts = await Promise.all(boards.map((b) => rollups.readBoard(meta.current, b, CANDIDATES_PER_BOARD)));
  let entries: BoardEntry[] = firsts.flat();
  if (boards.length > 1) {
    const candidates = [...new Set(entries.map((e) => e.referrer))];
    entries = await rollups.readBoardEntries(meta.current, boards, candidates);
  }
  // Ties ranked by what was brought, then id: the index orders by approved alone.
  const ranked = mergeBoards(entries, TOP_REFERRERS);
  const found = await names(ranked.map((e) => e.referrer));
  return ranked.map(({ referrer, brought, approved }) => {
    const member = found.get(referrer);
    const visible = member !== undefined && inScope(scope, member.district);
    return {
      id: visible ? referrer : null,
      name: visible ? member.name : null,
      district: member?.district ?? null,
      brought,
      approved,
    };
  });
}
