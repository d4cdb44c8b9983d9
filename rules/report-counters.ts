import { applicationStatuses, type ApplicationStatus } from './application';
import { formatDate, istDayOfTimestamp, parseDate } from './ist';
import {
  AGE_OFFSET,
  type AgeBucket,
  ageBucketOn,
  ageBuckets,
  COUNTERS_PER_CELL,
  daysBetween,
  GENDER_OFFSET,
  type GenderKey,
  genderKeys,
  MEMBER_OFFSET,
  type MemberKey,
  memberKeys,
  NUMBERED_OFFSET,
  type ReportFilters,
  reportDistricts,
  type ReportSummary,
  UNKNOWN,
} from './report';
import {
  APPROVED,
  boardKey,
  boardsOf,
  BROUGHT,
  NO_CAMPAIGN,
  REFERRED_OFFSET,
  referralFigures,
  statusDistrictIndex,
} from './report-referrals';

// The server's side of the report (rollups, report API): what one application counts
// as, the counter changes it makes, and the folding of per-day counter rows into the
// figures of spec 2.4. The SPA needs none of it: report.ts holds what both share.

const districtIndex = new Map(reportDistricts.map((name, i) => [name, i]));

// ---------------------------------------------------------------------------
// What one application counts as

export interface CountedCell {
  /** IST day of submitted_at. */
  readonly day: string;
  readonly status: ApplicationStatus;
  /** One of reportDistricts. */
  readonly district: string;
  readonly gender: GenderKey;
  readonly member: MemberKey;
  /** Bucket as of the day it was counted on (see ageBucketOn). */
  readonly age: AgeBucket;
  /** The date of birth when it is a valid 'YYYY-MM-DD' (for the birthday index). */
  readonly birthDate?: string;
  /** The campaign it came through (issue 19): it counts in that campaign's rows too. */
  readonly campaign?: string;
  /** The application id of the member whose referral brought it (issue 19). */
  readonly referrer?: string;
  /** It has a member number (issue 20): approved once, whatever its status now. */
  readonly numbered?: true;
}

/** Campaign and application ids as stored (never `#`, which separates a key's parts). */
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const storedId = (value: unknown): string | undefined =>
  typeof value === 'string' && idPattern.test(value) ? value : undefined;

const isStatus = (value: unknown): value is ApplicationStatus =>
  typeof value === 'string' && (applicationStatuses as readonly string[]).includes(value);

/**
 * What a stored application counts as on day `asOf`, or undefined when it counts in no
 * report: a status outside the four (no filter can select it) or no valid submitted_at
 * (no day to put it on).
 */
/** The item's attributes countedCell reads (a rebuild's scan reads only these). */
export const countedItemFields = [
  'application_status',
  'submitted_at',
  'revenue_district',
  'gender',
  'date_of_birth',
  'is_already_member',
  'campaign_id',
  'referrer_id',
  'member_number',
] as const;

export function countedCell(item: Readonly<Record<string, unknown>>, asOf: string): CountedCell | undefined {
  const status = item.application_status;
  const day = istDayOfTimestamp(item.submitted_at);
  if (!isStatus(status) || !day) return undefined;
  const district =
    typeof item.revenue_district === 'string' && districtIndex.has(item.revenue_district)
      ? item.revenue_district
      : UNKNOWN;
  const gender: GenderKey = item.gender === 'Male' || item.gender === 'Female' ? item.gender : UNKNOWN;
  const birth = typeof item.date_of_birth === 'string' ? parseDate(item.date_of_birth) : undefined;
  const campaign = storedId(item.campaign_id);
  const referrer = storedId(item.referrer_id);
  return {
    day,
    status,
    district,
    gender,
    member: item.is_already_member === true ? 'Yes' : 'No',
    age: ageBucketOn(item.date_of_birth, asOf),
    ...(birth && { birthDate: formatDate(birth) }),
    ...(campaign && { campaign }),
    ...(referrer && { referrer }),
    ...(typeof item.member_number === 'string' && { numbered: true as const }),
  };
}

export const sameCell = (a: CountedCell | undefined, b: CountedCell | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.day === b.day &&
    a.status === b.status &&
    a.district === b.district &&
    a.gender === b.gender &&
    a.member === b.member &&
    a.age === b.age &&
    a.campaign === b.campaign &&
    a.referrer === b.referrer &&
    a.numbered === b.numbered);

/**
 * `${status}#${day}`: one rollup row of counters; `${status}#${day}#${campaign}`: the
 * same row of one campaign's applications (issue 19).
 */
export const dayKey = (status: ApplicationStatus, day: string, campaign?: string) =>
  campaign ? `${status}#${day}#${campaign}` : `${status}#${day}`;

export function parseDayKey(key: string): { status: ApplicationStatus; day: string; campaign?: string } {
  const [status, day, campaign] = key.split('#');
  if (!isStatus(status) || !day || !parseDate(day)) throw new Error(`Not a day key: ${key}`);
  return { status, day, ...(campaign && { campaign }) };
}

/**
 * `T#${day}#${campaign}`: the "Top campaigns" row of a campaign on a day, its counters
 * one per status and district (topIndex), TOP_COUNTERS of them, created zero-filled as
 * the day rows are (so that a row's size does not grow as more of them count).
 */
const TOP_PREFIX = 'T#';
export const topKey = (day: string, campaign: string) => `${TOP_PREFIX}${day}#${campaign}`;
export const isTopKey = (key: string) => key.startsWith(TOP_PREFIX);
export const topIndex = statusDistrictIndex;
/** Counters of one Top row: every topIndex, of every application and then of the referred (REFERRED_OFFSET). */
export const TOP_COUNTERS = 2 * REFERRED_OFFSET;

/** Indexes into a day's flat counters (district × COUNTERS_PER_CELL + counter). */
function counterIndexes(cell: CountedCell): number[] {
  const base = (districtIndex.get(cell.district) ?? reportDistricts.length - 1) * COUNTERS_PER_CELL;
  return [
    base + GENDER_OFFSET + genderKeys.indexOf(cell.gender),
    base + MEMBER_OFFSET + memberKeys.indexOf(cell.member),
    base + AGE_OFFSET + ageBuckets.indexOf(cell.age),
    ...(cell.numbered ? [base + NUMBERED_OFFSET] : []),
  ];
}

/**
 * Changes to counters, summed: per day key, per counter index. A record that moves an
 * application from one cell to another is -1 there and +1 here; many records fold
 * into one change per day key.
 */
export class CounterDelta {
  readonly days = new Map<string, Map<number, number>>();
  readonly statuses = new Map<ApplicationStatus, number>();

  addCell(cell: CountedCell | undefined, sign: 1 | -1): this {
    if (!cell) return this;
    const key = dayKey(cell.status, cell.day);
    for (const index of counterIndexes(cell)) this.addCounter(key, index, sign);
    const district = districtIndex.get(cell.district) ?? reportDistricts.length - 1;
    if (cell.campaign) {
      const campaignKey = dayKey(cell.status, cell.day, cell.campaign);
      for (const index of counterIndexes(cell)) this.addCounter(campaignKey, index, sign);
      this.addCounter(topKey(cell.day, cell.campaign), topIndex(cell.status, district), sign);
    }
    if (cell.referrer) {
      const top = topKey(cell.day, cell.campaign ?? NO_CAMPAIGN);
      this.addCounter(top, REFERRED_OFFSET + topIndex(cell.status, district), sign);
      for (const board of boardsOf(district, cell.campaign)) {
        this.addCounter(boardKey(board, cell.referrer), BROUGHT, sign);
        if (cell.status === 'approved') this.addCounter(boardKey(board, cell.referrer), APPROVED, sign);
      }
    }
    this.statuses.set(cell.status, (this.statuses.get(cell.status) ?? 0) + sign);
    return this;
  }

  addCounter(key: string, index: number, n: number): this {
    let counters = this.days.get(key);
    if (!counters) this.days.set(key, (counters = new Map<number, number>()));
    counters.set(index, (counters.get(index) ?? 0) + n);
    return this;
  }

  /** From what was counted to what should be counted. */
  static between(before: CountedCell | undefined, after: CountedCell | undefined): CounterDelta {
    const delta = new CounterDelta();
    if (sameCell(before, after)) return delta;
    return delta.addCell(before, -1).addCell(after, 1);
  }

  merge(other: CounterDelta): this {
    for (const [key, counters] of other.days) for (const [i, n] of counters) this.addCounter(key, i, n);
    for (const [status, n] of other.statuses) this.statuses.set(status, (this.statuses.get(status) ?? 0) + n);
    return this;
  }

  /** Day keys with a non-zero change, each with its non-zero counters. */
  nonZero(): Map<string, Map<number, number>> {
    const out = new Map<string, Map<number, number>>();
    for (const [key, counters] of this.days) {
      const kept = new Map([...counters].filter(([, n]) => n !== 0));
      if (kept.size > 0) out.set(key, kept);
    }
    return out;
  }

  nonZeroStatuses(): Map<ApplicationStatus, number> {
    return new Map([...this.statuses].filter(([, n]) => n !== 0));
  }

  /** Day keys touched at all (even if the changes cancel out). */
  touchedDays(): string[] {
    return [...this.days.keys()];
  }
}

// ---------------------------------------------------------------------------
// Folding

/** One rollup row: the counters of one status on one day, by district (reportDistricts order). */
export interface DayCounters {
  readonly day: string;
  readonly status: ApplicationStatus;
  readonly cells: readonly (readonly number[])[];
}

/** One application counted in `from` whose bucket is `to` on the report's day. */
export interface AgeCorrection {
  readonly day: string;
  readonly status: ApplicationStatus;
  readonly district: string;
  readonly from: AgeBucket;
  readonly to: AgeBucket;
  readonly campaign?: string;
}

/** The correction for one counted cell on day `on`, if its bucket has changed since it was counted. */
export function ageCorrection(cell: CountedCell, on: string): AgeCorrection | undefined {
  if (!cell.birthDate) return undefined;
  const now = ageBucketOn(cell.birthDate, on);
  if (now === cell.age) return undefined;
  return {
    day: cell.day,
    status: cell.status,
    district: cell.district,
    from: cell.age,
    to: now,
    ...(cell.campaign && { campaign: cell.campaign }),
  };
}

const zeroByStatus = (): Record<ApplicationStatus, number> =>
  Object.fromEntries(applicationStatuses.map((s) => [s, 0])) as Record<ApplicationStatus, number>;

export function emptyCells(): number[][] {
  return Array.from({ length: reportDistricts.length }, () => Array<number>(COUNTERS_PER_CELL).fill(0));
}

export interface FoldInput {
  readonly asOf: string;
  readonly filters: ReportFilters;
  /** The resolved range (null: no data and no bound). */
  readonly range: { readonly from: string; readonly to: string } | null;
  /** The day rows: a campaign's own when the filters name one. */
  readonly days: readonly DayCounters[];
  readonly corrections: readonly AgeCorrection[];
  /** The "Top campaigns" rows of the range (absent: no such series). */
  readonly top?: readonly TopRow[];
}

/** One campaign's counters on one day, by topIndex (status × district). */
export interface TopRow {
  readonly day: string;
  readonly campaign: string;
  readonly counts: ReadonlyMap<number, number>;
}

/** Applications and approvals per campaign within the filters, most first (ties by id), ten. */
function topCampaigns(
  top: readonly TopRow[],
  filters: ReportFilters,
  rows: readonly number[],
  inRange: (d: string) => boolean,
) {
  const sums = new Map<string, { applications: number; approved: number }>();
  for (const { day, campaign, counts } of top) {
    if (!inRange(day) || (filters.campaign && campaign !== filters.campaign)) continue;
    const sum = sums.get(campaign) ?? { applications: 0, approved: 0 };
    for (const status of filters.statuses) {
      for (const row of rows) {
        const n = counts.get(topIndex(status, row)) ?? 0;
        sum.applications += n;
        if (status === 'approved') sum.approved += n;
      }
    }
    sums.set(campaign, sum);
  }
  return [...sums]
    .map(([campaign, s]) => ({ campaign, ...s }))
    .filter((c) => c.applications > 0)
    .sort((a, b) => b.applications - a.applications || (a.campaign < b.campaign ? -1 : 1))
    .slice(0, 10);
}

/** The figures of spec 2.4 from rollup rows (and the age corrections due since they were counted). */
export function foldReport({ asOf, filters, range, days, corrections, top = [] }: FoldInput): ReportSummary {
  const statuses = new Set<string>(filters.statuses);
  const rows =
    filters.districts.length === 0
      ? reportDistricts.map((_, i) => i)
      : filters.districts.map((d) => districtIndex.get(d)).filter((i): i is number => i !== undefined);
  const inRange = (day: string) => range !== null && day >= range.from && day <= range.to;

  const byStatus = zeroByStatus();
  const byDistrict = new Array<number>(reportDistricts.length).fill(0);
  const byGender = { Male: 0, Female: 0, Unknown: 0 };
  const byMember = { Yes: 0, No: 0 };
  const byAge = Object.fromEntries(ageBuckets.map((b) => [b, 0])) as Record<AgeBucket, number>;
  let members = 0;
  const series = new Map((range ? daysBetween(range.from, range.to) : []).map((d) => [d, zeroByStatus()]));
  let total = 0;

  for (const { day, status, cells } of days) {
    if (!statuses.has(status) || !inRange(day)) continue;
    const point = series.get(day)!;
    for (const row of rows) {
      const c = cells[row];
      if (!c) continue;
      const n = (c[GENDER_OFFSET] ?? 0) + (c[GENDER_OFFSET + 1] ?? 0) + (c[GENDER_OFFSET + 2] ?? 0);
      total += n;
      byStatus[status] += n;
      byDistrict[row]! += n;
      point[status] += n;
      genderKeys.forEach((g, i) => (byGender[g] += c[GENDER_OFFSET + i] ?? 0));
      memberKeys.forEach((m, i) => (byMember[m] += c[MEMBER_OFFSET + i] ?? 0));
      ageBuckets.forEach((a, i) => (byAge[a] += c[AGE_OFFSET + i] ?? 0));
      // A row stored before the counter has none: 0 (rollups-keys.ts).
      if (status === 'approved') members += c[NUMBERED_OFFSET] ?? 0;
    }
  }

  const districtsIncluded = new Set(rows.map((i) => reportDistricts[i]));
  for (const c of corrections) {
    if (!statuses.has(c.status) || !inRange(c.day) || !districtsIncluded.has(c.district)) continue;
    if (filters.campaign && c.campaign !== filters.campaign) continue;
    byAge[c.from] -= 1;
    byAge[c.to] += 1;
  }

  const districtCounts = reportDistricts
    .map((district, i) => ({ district, count: byDistrict[i]! }))
    .filter((d) => d.count > 0)
    .sort((a, b) => b.count - a.count || a.district.localeCompare(b.district));

  return {
    asOf,
    filters: {
      from: filters.from,
      to: filters.to,
      statuses: [...filters.statuses],
      districts: [...filters.districts],
      ...(filters.campaign && { campaign: filters.campaign }),
    },
    range: range ? { from: range.from, to: range.to } : null,
    total,
    byStatus,
    byDistrict: districtCounts,
    byGender,
    byMember,
    byAge,
    members,
    series: [...series].map(([day, s]) => ({
      day,
      total: applicationStatuses.reduce((sum, status) => sum + s[status], 0),
      byStatus: s,
    })),
    topDistricts: districtCounts.slice(0, 10),
    topCampaigns: topCampaigns(top, filters, rows, inRange),
    referrals: referralFigures(top, filters, rows, inRange),
  };
}
