import * as z from 'zod';
import { ageOn } from './age';
import { applicationStatuses, type ApplicationStatus } from './application';
import { districts } from './districts';
import { type CalendarDate, formatDate, istDay, parseDate } from './ist';

// The report's arithmetic, shared by the server (rollups, report API) and the SPA
// (schemas, filters): which counter an application adds to, age buckets as people
// grow older, and the folding of per-day counters into the figures of spec 2.4.
// Days are IST calendar days ('YYYY-MM-DD'), as everywhere in the product.

export const UNKNOWN = 'Unknown';

/**
 * The district rows of a rollup cell, in stored order: the 38 districts, then Unknown
 * (missing, or a name that is not one of the 38). The order is part of the stored
 * format of the rollups: append only, or rebuild the rollups after a change.
 */
export const reportDistricts: readonly string[] = [...districts.map((d) => d.en), UNKNOWN];
const districtIndex = new Map(reportDistricts.map((name, i) => [name, i]));
export const knownDistrictNames: readonly string[] = districts.map((d) => d.en);

export const genderKeys = ['Male', 'Female', UNKNOWN] as const;
export type GenderKey = (typeof genderKeys)[number];
export const memberKeys = ['Yes', 'No'] as const;
export type MemberKey = (typeof memberKeys)[number];
export const ageBuckets = ['<18', '18-24', '25-34', '35-44', '45-54', '55+', UNKNOWN] as const;
export type AgeBucket = (typeof ageBuckets)[number];

/** Ages at which the bucket changes. */
export const AGE_BOUNDARIES = [18, 25, 35, 45, 55] as const;

/**
 * Counters of one (day, status, district) cell: gender (3), member (2), age (7). Every
 * counted application adds one to one counter of each group, so the cell's total is
 * the sum of its gender counters.
 */
export const GENDER_OFFSET = 0;
export const MEMBER_OFFSET = genderKeys.length;
export const AGE_OFFSET = MEMBER_OFFSET + memberKeys.length;
export const COUNTERS_PER_CELL = AGE_OFFSET + ageBuckets.length;
export const CELLS_PER_DAY = reportDistricts.length * COUNTERS_PER_CELL;

/** The longest range one report may cover, in days. */
export const MAX_REPORT_DAYS = 400;

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------
// Days

const dayNumber = (d: CalendarDate) => Date.UTC(d.year, d.month - 1, d.day) / DAY_MS;

function requireDay(day: string): CalendarDate {
  const parsed = parseDate(day);
  if (!parsed) throw new Error(`Not a day: ${day}`);
  return parsed;
}

export function addDays(day: string, n: number): string {
  const date = new Date((dayNumber(requireDay(day)) + n) * DAY_MS);
  return formatDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function dayCount(from: string, to: string): number {
  return Math.max(0, dayNumber(requireDay(to)) - dayNumber(requireDay(from)) + 1);
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const n = dayCount(from, to);
  return Array.from({ length: n }, (_, i) => addDays(from, i));
}

export const maxDay = (...days: (string | undefined)[]): string =>
  days.filter((d): d is string => d !== undefined).reduce((a, b) => (b > a ? b : a));
export const minDay = (...days: (string | undefined)[]): string =>
  days.filter((d): d is string => d !== undefined).reduce((a, b) => (b < a ? b : a));

// ---------------------------------------------------------------------------
// Ages

export function ageBucket(age: number): Exclude<AgeBucket, 'Unknown'> {
  if (age < 18) return '<18';
  if (age <= 24) return '18-24';
  if (age <= 34) return '25-34';
  if (age <= 44) return '35-44';
  if (age <= 54) return '45-54';
  return '55+';
}

/** The bucket of a stored date of birth on a day; missing or invalid is Unknown. */
export function ageBucketOn(dateOfBirth: unknown, on: string): AgeBucket {
  const birth = typeof dateOfBirth === 'string' ? parseDate(dateOfBirth) : undefined;
  return birth ? ageBucket(ageOn(birth, requireDay(on))) : UNKNOWN;
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * Birth dates whose age bucket changes on `day`: those turning 18, 25, 35, 45 or 55
 * that day. Someone born on 29 February has a birthday on 1 March in common years
 * (ageOn: they are not a year older until the day after 28 February).
 */
export function birthDatesCrossingOn(day: string): string[] {
  const d = requireDay(day);
  const dates: string[] = [];
  for (const age of AGE_BOUNDARIES) {
    const year = d.year - age;
    const same = formatDate({ year, month: d.month, day: d.day });
    if (parseDate(same)) dates.push(same);
    if (d.month === 3 && d.day === 1 && !isLeapYear(d.year) && isLeapYear(year)) {
      dates.push(formatDate({ year, month: 2, day: 29 }));
    }
  }
  return dates;
}

/** Birth dates whose bucket changes on some day after `after` up to `through` (both IST days). */
export function birthDatesCrossingBetween(after: string, through: string): string[] {
  return daysBetween(addDays(after, 1), through).flatMap(birthDatesCrossingOn);
}

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
}

/** IST day of an ISO timestamp; undefined when it is not one. */
export function istDayOfTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  return istDay(new Date(ms));
}

const isStatus = (value: unknown): value is ApplicationStatus =>
  typeof value === 'string' && (applicationStatuses as readonly string[]).includes(value);

/**
 * What a stored application counts as on day `asOf`, or undefined when it counts in no
 * report: a status outside the four (no filter can select it) or no valid submitted_at
 * (no day to put it on).
 */
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
  return {
    day,
    status,
    district,
    gender,
    member: item.is_already_member === true ? 'Yes' : 'No',
    age: ageBucketOn(item.date_of_birth, asOf),
    ...(birth && { birthDate: formatDate(birth) }),
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
    a.age === b.age);

/** `${status}#${day}`: one rollup row of counters. */
export const dayKey = (status: ApplicationStatus, day: string) => `${status}#${day}`;

export function parseDayKey(key: string): { status: ApplicationStatus; day: string } {
  const [status, day] = key.split('#');
  if (!isStatus(status) || !day || !parseDate(day)) throw new Error(`Not a day key: ${key}`);
  return { status, day };
}

/** Indexes into a day's flat counters (district × COUNTERS_PER_CELL + counter). */
export function counterIndexes(cell: CountedCell): [number, number, number] {
  const base = (districtIndex.get(cell.district) ?? reportDistricts.length - 1) * COUNTERS_PER_CELL;
  return [
    base + GENDER_OFFSET + genderKeys.indexOf(cell.gender),
    base + MEMBER_OFFSET + memberKeys.indexOf(cell.member),
    base + AGE_OFFSET + ageBuckets.indexOf(cell.age),
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
// Filters

const dayParam = z
  .string()
  .optional()
  .refine((s) => !s || parseDate(s) !== undefined, 'INVALID_DATE')
  .transform((s) => (s ? s : null));

/** 'a,b' or ['a','b'] -> distinct trimmed values; empty or missing -> []. */
const listParam = (code: string, allowed: readonly string[]) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => [...new Set((Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim()).filter(Boolean))])
    .refine((values) => values.every((s) => allowed.includes(s)), code);

const filterFields = {
  from: dayParam,
  to: dayParam,
  status: listParam('INVALID_STATUS', applicationStatuses),
  district: listParam('INVALID_DISTRICT', knownDistrictNames),
};

interface RawFilters {
  from: string | null;
  to: string | null;
  status: string[];
  district: string[];
}

function checkRange(value: RawFilters, ctx: z.RefinementCtx) {
  // Zod runs this even when a day failed its own check: a range is only of two real days
  // (dayCount throws on anything else, which answered 500).
  if (value.from && value.to && parseDate(value.from) && parseDate(value.to)) {
    if (value.from > value.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'RANGE_INVALID' });
    else if (dayCount(value.from, value.to) > MAX_REPORT_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'RANGE_TOO_LONG' });
    }
  }
}

function toFilters(value: RawFilters): ReportFilters {
  return {
    from: value.from,
    to: value.to,
    // No status selected means all of them (the Reports page selects all by default).
    statuses:
      value.status.length === 0
        ? [...applicationStatuses]
        : applicationStatuses.filter((s) => value.status.includes(s)),
    districts: knownDistrictNames.filter((d) => value.district.includes(d)),
  };
}

export interface ReportFilters {
  /** First IST day included; null: no lower bound. */
  readonly from: string | null;
  /** Last IST day included; null: no upper bound. */
  readonly to: string | null;
  /** Never empty; in the order of applicationStatuses. */
  readonly statuses: readonly ApplicationStatus[];
  /** Empty: every district (and Unknown). */
  readonly districts: readonly string[];
}

/**
 * The report filters of spec 5 as query parameters: `from`, `to` ('YYYY-MM-DD', empty
 * = no bound), `status` and `district` (comma-separated; empty = all). Field codes:
 * INVALID_DATE, RANGE_INVALID, RANGE_TOO_LONG, INVALID_STATUS, INVALID_DISTRICT.
 */
export const reportFiltersSchema = z.object(filterFields).superRefine(checkRange).transform(toFilters);

export const MAX_ROWS_PER_PAGE = 500;

/** Filters plus paging for the raw rows: `limit` (1-500, default 50) and an opaque `cursor`. */
export const reportRowsQuerySchema = z
  .object({
    ...filterFields,
    limit: z
      .string()
      .optional()
      .transform((s) => (s === undefined || s === '' ? 50 : Number(s)))
      .refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_ROWS_PER_PAGE, 'INVALID_LIMIT'),
    cursor: z
      .string()
      .max(1000, 'INVALID_CURSOR')
      .regex(/^[A-Za-z0-9_-]*$/, 'INVALID_CURSOR')
      .optional()
      .transform((s) => (s ? s : undefined)),
  })
  .superRefine(checkRange)
  .transform((value) => ({ filters: toFilters(value), limit: value.limit, cursor: value.cursor }));

/** Query parameters for the filters (the SPA's side of reportFiltersSchema). */
export function reportFiltersQuery(filters: {
  from?: string | null;
  to?: string | null;
  statuses?: readonly string[];
  districts?: readonly string[];
}): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.statuses && filters.statuses.length > 0) params.set('status', filters.statuses.join(','));
  if (filters.districts && filters.districts.length > 0) params.set('district', filters.districts.join(','));
  return params;
}

// ---------------------------------------------------------------------------
// Responses

const count = z.number().int();
const byStatusSchema = z.object(
  Object.fromEntries(applicationStatuses.map((s) => [s, count])) as Record<ApplicationStatus, typeof count>,
);
const districtCountSchema = z.object({ district: z.string(), count });

export const reportSummarySchema = z.object({
  /** The IST day the ages are computed for (today at the time of the request). */
  asOf: z.string(),
  filters: z.object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    statuses: z.array(z.enum(applicationStatuses)),
    districts: z.array(z.string()),
  }),
  /** The days covered: the filters' bounds, an open bound taken from the data; null when there is none. */
  range: z.object({ from: z.string(), to: z.string() }).nullable(),
  total: count,
  byStatus: byStatusSchema,
  /** Districts with at least one application, most first (ties by name); missing as Unknown. */
  byDistrict: z.array(districtCountSchema),
  byGender: z.object({ Male: count, Female: count, Unknown: count }),
  byMember: z.object({ Yes: count, No: count }),
  byAge: z.object(Object.fromEntries(ageBuckets.map((b) => [b, count])) as Record<AgeBucket, typeof count>),
  /** Every IST day of the range, zeros included, oldest first. */
  series: z.array(z.object({ day: z.string(), total: count, byStatus: byStatusSchema })),
  /** The first ten of byDistrict. */
  topDistricts: z.array(districtCountSchema).max(10),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone_number: z.string(),
  revenue_district: z.string().nullable(),
  application_status: z.string(),
  submitted_at: z.string(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const reportRowsResponseSchema = z.object({
  /** Newest first. */
  items: z.array(reportRowSchema),
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
  /** Applications matching the filters (from the rollups). */
  total: count,
});
export type ReportRowsResponse = z.infer<typeof reportRowsResponseSchema>;

export const statsResponseSchema = z.object({ total: count, ...byStatusSchema.shape });
export type StatsResponse = z.infer<typeof statsResponseSchema>;

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
}

/** The correction for one counted cell on day `on`, if its bucket has changed since it was counted. */
export function ageCorrection(cell: CountedCell, on: string): AgeCorrection | undefined {
  if (!cell.birthDate) return undefined;
  const now = ageBucketOn(cell.birthDate, on);
  if (now === cell.age) return undefined;
  return { day: cell.day, status: cell.status, district: cell.district, from: cell.age, to: now };
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
  readonly days: readonly DayCounters[];
  readonly corrections: readonly AgeCorrection[];
}

/** The figures of spec 2.4 from rollup rows (and the age corrections due since they were counted). */
export function foldReport({ asOf, filters, range, days, corrections }: FoldInput): ReportSummary {
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
    }
  }

  const districtsIncluded = new Set(rows.map((i) => reportDistricts[i]));
  for (const c of corrections) {
    if (!statuses.has(c.status) || !inRange(c.day) || !districtsIncluded.has(c.district)) continue;
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
    },
    range: range ? { from: range.from, to: range.to } : null,
    total,
    byStatus,
    byDistrict: districtCounts,
    byGender,
    byMember,
    byAge,
    series: [...series].map(([day, s]) => ({
      day,
      total: applicationStatuses.reduce((sum, status) => sum + s[status], 0),
      byStatus: s,
    })),
    topDistricts: districtCounts.slice(0, 10),
  };
}
