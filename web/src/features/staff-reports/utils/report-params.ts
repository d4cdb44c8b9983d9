import * as v from 'valibot';
import { applicationStatuses, type ApplicationStatus } from '../../../../../rules/application-values';
import { parseDate } from '../../../../../rules/ist';
import { knownDistrictNames, reportFiltersQuery, reportFiltersSchema } from '../../../../../rules/report';

// The Reports page's filters as they live in the address bar: `from`, `to` (IST days,
// 'YYYY-MM-DD'), `status` and `district` (comma-separated), `campaign` (a campaign's id,
// issue 19). Every status is the default,
// and is left out of the URL; no district means every district. Anything the report API
// would refuse (an unknown status, a day that is not one) is dropped on reading, so a
// hand-edited link still opens a report.

export interface ReportParams {
  readonly from: string | null;
  readonly to: string | null;
  /** Never empty; in the order of applicationStatuses. */
  readonly statuses: readonly ApplicationStatus[];
  /** Empty: every district. Sorted by name. */
  readonly districts: readonly string[];
  /** A campaign's id; absent: every application. */
  readonly campaign?: string;
}

export const defaultReportParams: ReportParams = {
  from: null,
  to: null,
  statuses: applicationStatuses,
  districts: [],
};

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const campaignOf = (value: string | null) => (value && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? { campaign: value } : {});

const day = (value: string | null) => (value && parseDate(value) ? value : null);

export function parseReportParams(search: URLSearchParams): ReportParams {
  const wanted = new Set(list(search.get('status')));
  const statuses = applicationStatuses.filter((s) => wanted.has(s));
  const districts = new Set(list(search.get('district')));
  return {
    from: day(search.get('from')),
    to: day(search.get('to')),
    statuses: statuses.length > 0 ? statuses : applicationStatuses,
    districts: knownDistrictNames.filter((d) => districts.has(d)).sort((a, b) => a.localeCompare(b)),
    ...campaignOf(search.get('campaign')),
  };
}

const allStatuses = (statuses: readonly ApplicationStatus[]) => statuses.length === applicationStatuses.length;

/** The address bar's query: defaults left out, so the default report has a bare URL. */
export function reportParamsToSearch(params: ReportParams): URLSearchParams {
  return reportFiltersQuery({
    from: params.from,
    to: params.to,
    statuses: allStatuses(params.statuses) ? [] : params.statuses,
    districts: params.districts,
    campaign: params.campaign ?? null,
  });
}

/**
 * The report API's query (same parameters: rules/report.ts reportFiltersSchema). A second
 * name for the same function on purpose: callers say which of the two queries they build.
 * @alias
 */
export const reportApiQuery = reportParamsToSearch;

export const isDefaultReport = (params: ReportParams): boolean =>
  params.from === null &&
  params.to === null &&
  allStatuses(params.statuses) &&
  params.districts.length === 0 &&
  !params.campaign;

/** A status turned on or off; the last one stays on (no status would mean an empty report by mistake). */
export function toggleStatus(params: ReportParams, status: ApplicationStatus, on: boolean): ReportParams {
  const set = new Set(params.statuses);
  if (on) set.add(status);
  else set.delete(status);
  const statuses = applicationStatuses.filter((s) => set.has(s));
  return statuses.length === 0 ? params : { ...params, statuses };
}

export function toggleDistrict(params: ReportParams, district: string, on: boolean): ReportParams {
  const set = new Set(params.districts);
  if (on) set.add(district);
  else set.delete(district);
  return { ...params, districts: [...set].sort((a, b) => a.localeCompare(b)) };
}

/** The report of one campaign ('': of every application). */
export function withCampaign(params: ReportParams, campaign: string): ReportParams {
  const { from, to, statuses, districts } = params;
  return { from, to, statuses, districts, ...(campaign && { campaign }) };
}

/** "UNDER REVIEW": how the filter shows a status (spec 2.4). */
export const statusFilterLabel = (status: string): string => status.replaceAll('_', ' ').toUpperCase();

export type ReportProblem = 'RANGE_INVALID' | 'RANGE_TOO_LONG' | 'INVALID_DATE';

/**
 * What the report API would refuse in these filters (From after To, a range over 400
 * days), checked by its own schema before asking: the page says it once, and asks nothing.
 */
export function reportProblem(params: ReportParams): ReportProblem | null {
  const checked = v.safeParse(reportFiltersSchema, Object.fromEntries(reportApiQuery(params)));
  if (checked.success) return null;
  const codes = checked.issues.map((issue) => issue.message);
  return (['RANGE_INVALID', 'RANGE_TOO_LONG', 'INVALID_DATE'] as const).find((code) => codes.includes(code)) ?? null;
}
