import { applicationStatuses } from '../../rules/application';
import { istDay } from '../../rules/ist';
import {
  addDays,
  dayCount,
  MAX_REPORT_DAYS,
  type ReportFilters,
  type ReportSummary,
  type StatsResponse,
} from '../../rules/report';
import { foldReport } from '../../rules/report-counters';
import type { RollupsReader } from '../adapters/rollups-reader';
import { pendingAgeCorrections } from './rollups-ageing';
import { AppError } from './http';

// The report from the rollups: META (1 item), the day rows of the selected statuses and
// days (one Query per status; a campaign's own rows when it filters by one), the "Top
// campaigns" rows of the days (one Query: one row per campaign and day it had
// applications, however many), the totals item only when a bound is open, and the
// birthday index only for the days the ageing run has not reached. What it reads
// depends on the days and statuses asked for, never on the number of applications.

/** The days a report covers: the filters' bounds, an open one from the data's first or last day. */
async function resolveRange(
  store: Pick<RollupsReader, 'readTotals'>,
  gen: string,
  filters: ReportFilters,
  capped = true,
): Promise<{ from: string; to: string } | null> {
  let { from, to } = filters;
  if (!from || !to) {
    const totals = await store.readTotals(gen);
    from ??= totals.firstDay ?? null;
    to ??= totals.lastDay ?? null;
  }
  if (!from || !to || from > to) return null;
  if (capped && dayCount(from, to) > MAX_REPORT_DAYS) {
    // Chosen by staff: too long a range is theirs to narrow. Left open: the report covers
    // the most recent MAX_REPORT_DAYS (or the first, from a given start), so the default
    // view never fails as the data grows.
    if (filters.from && filters.to) throw new AppError('VALIDATION_FAILED', { fields: { from: 'RANGE_TOO_LONG' } });
    if (filters.from) to = addDays(from, MAX_REPORT_DAYS - 1);
    else from = addDays(to, -(MAX_REPORT_DAYS - 1));
  }
  return { from, to };
}

export async function reportSummary(store: RollupsReader, filters: ReportFilters, now: Date): Promise<ReportSummary> {
  const asOf = istDay(now);
  const meta = await store.getMeta(false);
  if (!meta) {
    const range = filters.from && filters.to ? { from: filters.from, to: filters.to } : null;
    return foldReport({ asOf, filters, range, days: [], corrections: [] });
  }
  const range = await resolveRange(store, meta.current, filters);
  if (!range) return foldReport({ asOf, filters, range: null, days: [], corrections: [] });
  const [days, corrections, top] = await Promise.all([
    store.readDays(meta.current, filters.statuses, range.from, range.to, filters.campaign),
    pendingAgeCorrections(store, meta, asOf),
    store.readTop(meta.current, range.from, range.to),
  ]);
  return foldReport({ asOf, filters, range, days, corrections, top });
}

/**
 * How many applications match the filters (for the raw rows; ages do not matter). Without
 * days or districts, from the totals item; else from the day rows, over any range.
 */
export async function reportTotal(store: RollupsReader, filters: ReportFilters, now: Date): Promise<number> {
  const meta = await store.getMeta(false);
  if (!meta) return 0;
  if (!filters.from && !filters.to && filters.districts.length === 0 && !filters.campaign) {
    const { byStatus } = await store.readTotals(meta.current);
    return filters.statuses.reduce((sum, s) => sum + byStatus[s], 0);
  }
  const range = await resolveRange(store, meta.current, filters, false);
  if (!range) return 0;
  const days = await store.readDays(meta.current, filters.statuses, range.from, range.to, filters.campaign);
  return foldReport({ asOf: istDay(now), filters, range, days, corrections: [] }).total;
}

/**
 * The report of filters nothing is in (a scope none of whose districts was asked for):
 * zeros over the days a report of the same filters would cover (an open bound from the
 * data's first or last day, as any report). Reads META and the totals item at most.
 */
export async function emptyReport(
  store: Pick<RollupsReader, 'getMeta' | 'readTotals'>,
  filters: ReportFilters,
  now: Date,
): Promise<ReportSummary> {
  const asOf = istDay(now);
  const meta = await store.getMeta(false);
  const range = meta
    ? await resolveRange(store, meta.current, filters)
    : filters.from && filters.to
      ? { from: filters.from, to: filters.to }
      : null;
  return foldReport({ asOf, filters, range, days: [], corrections: [] });
}

function statsOf(byStatus: Partial<Record<string, number>>): StatsResponse {
  return {
    total: applicationStatuses.reduce((sum, s) => sum + (byStatus[s] ?? 0), 0),
    pending: byStatus.pending ?? 0,
    under_review: byStatus.under_review ?? 0,
    approved: byStatus.approved ?? 0,
    rejected: byStatus.rejected ?? 0,
  };
}

/** The dashboard's totals: one item. */
export async function statsSummary(store: Pick<RollupsReader, 'getMeta' | 'readTotals'>): Promise<StatsResponse> {
  const meta = await store.getMeta(false);
  return statsOf(meta ? (await store.readTotals(meta.current)).byStatus : {});
}

/**
 * The dashboard's totals of some districts (a scoped staff member's): from the district
 * rows of every day with data, never the totals item's counts, which are of every
 * district (it is read for the data's first and last day only). What it reads grows
 * with the days of data, not with the number of applications.
 */
export async function districtStatsSummary(
  store: RollupsReader,
  districts: readonly string[],
  now: Date,
): Promise<StatsResponse> {
  const meta = await store.getMeta(false);
  if (!meta) return statsOf({});
  const filters: ReportFilters = { from: null, to: null, statuses: applicationStatuses, districts };
  const range = await resolveRange(store, meta.current, filters, false);
  if (!range) return statsOf({});
  const days = await store.readDays(meta.current, applicationStatuses, range.from, range.to);
  return statsOf(foldReport({ asOf: istDay(now), filters, range, days, corrections: [] }).byStatus);
}
