import * as v from 'valibot';
import { ageOn } from './age';
import { applicationStatuses, type ApplicationStatus } from './application';
import { districts } from './districts';
import { type CalendarDate, formatDate, parseDate } from './ist';
import { type AddFieldIssue, crossCheck, optionalPiped, requestObject } from './schema';

// The report's terms, shared by the server (rollups, report API) and the SPA: the
// counters of a rollup cell, days and age buckets as people grow older, the filters,
// and the responses' schemas. What one application counts as, and the folding of
// per-day counters into the figures of spec 2.4, are the server's (report-counters.ts).
// Days are IST calendar days ('YYYY-MM-DD'), as everywhere in the product.

export const UNKNOWN = 'Unknown';

/**
 * The district rows of a rollup cell, in stored order: the 38 districts, then Unknown
 * (missing, or a name that is not one of the 38). The order is part of the stored
 * format of the rollups: append only, or rebuild the rollups after a change.
 */
export const reportDistricts: readonly string[] = [...districts.map((d) => d.en), UNKNOWN];
export const knownDistrictNames: readonly string[] = districts.map((d) => d.en);

export const genderKeys = ['Male', 'Female', UNKNOWN] as const;
export type GenderKey = (typeof genderKeys)[number];
export const memberKeys = ['Yes', 'No'] as const;
export type MemberKey = (typeof memberKeys)[number];
export const ageBuckets = ['<18', '18-24', '25-34', '35-44', '45-54', '55+', UNKNOWN] as const;
export type AgeBucket = (typeof ageBuckets)[number];

/** Ages at which the bucket changes. */
const AGE_BOUNDARIES = [18, 25, 35, 45, 55] as const;

/**
 * Counters of one (day, status, district) cell: gender (3), member (2), age (7). Every
 * counted application adds one to one counter of each group, so the cell's total is
 * the sum of its gender counters. Then, last (issue 20), those that have a member number:
 * appended to each district's list, so that a row stored before it is added to in place.
 */
export const GENDER_OFFSET = 0;
export const MEMBER_OFFSET = genderKeys.length;
export const AGE_OFFSET = MEMBER_OFFSET + memberKeys.length;
export const NUMBERED_OFFSET = AGE_OFFSET + ageBuckets.length;
export const COUNTERS_PER_CELL = NUMBERED_OFFSET + 1;
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
// Filters

const dayParam = v.pipe(
  optionalPiped(v.string()),
  v.check((s) => !s || parseDate(s) !== undefined, 'INVALID_DATE'),
  v.transform((s) => (s ? s : null)),
);

/** 'a,b' or ['a','b'] -> distinct trimmed values; empty or missing -> []. */
const listParam = (code: string, allowed: readonly string[]) =>
  v.pipe(
    optionalPiped(v.union([v.string(), v.array(v.string())])),
    v.transform((value) => [
      ...new Set((Array.isArray(value) ? value : (value ?? '').split(',')).map((s) => s.trim()).filter(Boolean)),
    ]),
    v.check((values) => values.every((s) => allowed.includes(s)), code),
  );

/** A campaign's id as the campaign API gives it (rules/campaigns.ts); checked, never looked up. */
export const campaignIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'INVALID'));

const campaignParam = v.pipe(
  optionalPiped(v.string()),
  v.transform((s) => (s ? s.trim() : '')),
  v.check((s) => s === '' || /^[A-Za-z0-9_-]{1,64}$/.test(s), 'INVALID_CAMPAIGN'),
  v.transform((s) => (s ? s : null)),
);

const filterFields = {
  from: dayParam,
  to: dayParam,
  status: listParam('INVALID_STATUS', applicationStatuses),
  district: listParam('INVALID_DISTRICT', knownDistrictNames),
  campaign: campaignParam,
};

interface RawFilters {
  from: string | null;
  to: string | null;
  status: string[];
  district: string[];
  campaign: string | null;
}

function checkRange(value: RawFilters, addIssue: AddFieldIssue) {
  // This runs even when a day failed its own check (as it did under zod): a range is only
  // of two real days (dayCount throws on anything else, which answered 500).
  if (value.from && value.to && parseDate(value.from) && parseDate(value.to)) {
    if (value.from > value.to) addIssue('to', 'RANGE_INVALID');
    else if (dayCount(value.from, value.to) > MAX_REPORT_DAYS) addIssue('from', 'RANGE_TOO_LONG');
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
    ...(value.campaign && { campaign: value.campaign }),
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
  /** A campaign's id (issue 19): only what came through it. Absent or null: every application. */
  readonly campaign?: string | null;
}

/**
 * The report filters of spec 5 as query parameters: `from`, `to` ('YYYY-MM-DD', empty
 * = no bound), `status` and `district` (comma-separated; empty = all). Field codes:
 * INVALID_DATE, RANGE_INVALID, RANGE_TOO_LONG, INVALID_STATUS, INVALID_DISTRICT; and
 * `campaign` (a campaign's id, INVALID_CAMPAIGN).
 */
export const reportFiltersSchema = v.pipe(
  requestObject(filterFields),
  crossCheck<RawFilters>(checkRange),
  v.transform(toFilters),
);

export const MAX_ROWS_PER_PAGE = 500;

/** Filters plus paging for the raw rows: `limit` (1-500, default 50) and an opaque `cursor`. */
const reportRowsQueryFields = requestObject({
  ...filterFields,
  limit: v.pipe(
    optionalPiped(v.string()),
    v.transform((s) => (s === undefined || s === '' ? 50 : Number(s))),
    v.check((n) => Number.isInteger(n) && n >= 1 && n <= MAX_ROWS_PER_PAGE, 'INVALID_LIMIT'),
  ),
  cursor: v.pipe(
    v.optional(v.pipe(v.string(), v.maxLength(1000, 'INVALID_CURSOR'), v.regex(/^[A-Za-z0-9_-]*$/, 'INVALID_CURSOR'))),
    v.transform((s) => (s ? s : undefined)),
  ),
});

export const reportRowsQuerySchema = v.pipe(
  reportRowsQueryFields,
  crossCheck<v.InferOutput<typeof reportRowsQueryFields>>(checkRange),
  v.transform((value) => ({ filters: toFilters(value), limit: value.limit, cursor: value.cursor })),
);

/** Query parameters for the filters (the SPA's side of reportFiltersSchema). */
export function reportFiltersQuery(filters: {
  from?: string | null;
  to?: string | null;
  statuses?: readonly string[];
  districts?: readonly string[];
  campaign?: string | null;
}): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.statuses && filters.statuses.length > 0) params.set('status', filters.statuses.join(','));
  if (filters.districts && filters.districts.length > 0) params.set('district', filters.districts.join(','));
  if (filters.campaign) params.set('campaign', filters.campaign);
  return params;
}

// ---------------------------------------------------------------------------
// Responses

const count = v.pipe(v.number(), v.safeInteger());
const byStatusEntries = Object.fromEntries(applicationStatuses.map((s) => [s, count])) as Record<
  ApplicationStatus,
  typeof count
>;
const byStatusSchema = v.object(byStatusEntries);
const districtCountSchema = v.object({ district: v.string(), count });
const referrerCountSchema = v.object({
  id: v.nullable(v.string()),
  name: v.nullable(v.string()),
  district: v.nullable(v.string()),
  brought: count,
  approved: count,
});

export const reportSummarySchema = v.object({
  /** The IST day the ages are computed for (today at the time of the request). */
  asOf: v.string(),
  filters: v.object({
    from: v.nullable(v.string()),
    to: v.nullable(v.string()),
    statuses: v.array(v.picklist(applicationStatuses)),
    districts: v.array(v.string()),
    campaign: v.optional(v.nullable(v.string())),
  }),
  /** The days covered: the filters' bounds, an open bound taken from the data; null when there is none. */
  range: v.nullable(v.object({ from: v.string(), to: v.string() })),
  total: count,
  byStatus: byStatusSchema,
  /** Districts with at least one application, most first (ties by name); missing as Unknown. */
  byDistrict: v.array(districtCountSchema),
  byGender: v.object({ Male: count, Female: count, Unknown: count }),
  byMember: v.object({ Yes: count, No: count }),
  byAge: v.object(Object.fromEntries(ageBuckets.map((b) => [b, count])) as Record<AgeBucket, typeof count>),
  /** Approved applications in the report that have a member number (issue 20); absent from an older server's answer. */
  members: v.optional(count),
  /** Every IST day of the range, zeros included, oldest first. */
  series: v.array(v.object({ day: v.string(), total: count, byStatus: byStatusSchema })),
  /** The first ten of byDistrict. */
  topDistricts: v.pipe(v.array(districtCountSchema), v.maxLength(10)),
  /**
   * Campaigns with applications in the report (issue 19), most first (ties by id), at most
   * ten: `applications` as `total` counts them, `approved` those of them approved. Absent
   * from an older server's answer.
   */
  topCampaigns: v.optional(
    v.pipe(v.array(v.object({ campaign: v.string(), applications: count, approved: count })), v.maxLength(10)),
  ),
  /** Applications in the report that came through a member's referral link, and those of them approved (issue 19). */
  referrals: v.optional(v.object({ applications: count, approved: count })),
  /**
   * The members who brought the most approved members, of all time, within the district
   * and campaign filters (not the days or statuses): at most ten, most approved first.
   * `id` and `name` are null for a member outside the reader's districts.
   */
  topReferrers: v.optional(v.pipe(v.array(referrerCountSchema), v.maxLength(10))),
});
export type ReportSummary = v.InferOutput<typeof reportSummarySchema>;

const reportRowSchema = v.object({
  id: v.string(),
  name: v.string(),
  phone_number: v.string(),
  revenue_district: v.nullable(v.string()),
  application_status: v.string(),
  submitted_at: v.string(),
});
export type ReportRow = v.InferOutput<typeof reportRowSchema>;

export const reportRowsResponseSchema = v.object({
  /** Newest first. */
  items: v.array(reportRowSchema),
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor: v.optional(v.string()),
  /** Applications matching the filters (from the rollups). */
  total: count,
});
export type ReportRowsResponse = v.InferOutput<typeof reportRowsResponseSchema>;

export const statsResponseSchema = v.object({ total: count, ...byStatusEntries });
export type StatsResponse = v.InferOutput<typeof statsResponseSchema>;
