import { DAY_MS, istDayOf, istMidnight, type Status, STATUSES } from './rollups';

// The report by brute force over raw application items: an independent recomputation,
// written from the spec's rules (section 5's filters, section 3's figures), that the
// rollups' reports are checked against.

export interface BruteFilters {
  from?: string;
  to?: string;
  statuses?: readonly Status[];
  districts?: readonly string[];
  /** A campaign's id: only the items that carry it (issue 19). */
  campaign?: string;
}

export interface BruteReport {
  total: number;
  byStatus: Record<string, number>;
  byDistrict: Record<string, number>;
  byGender: Record<string, number>;
  byMember: Record<string, number>;
  byAge: Record<string, number>;
  /** Approved applications with a member number (issue 20). */
  members: number;
  /** Per IST day with data: total and per status. */
  perDay: Map<string, { total: number; byStatus: Record<string, number> }>;
  topDistricts: { district: string; count: number }[];
  firstDay?: string;
  lastDay?: string;
}

function wholeYears(dob: unknown, today: string): number | undefined {
  if (typeof dob !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dob);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - y - (tm < mo || (tm === mo && td < d) ? 1 : 0);
}

function bucketOf(dob: unknown, today: string): string {
  const age = wholeYears(dob, today);
  if (age === undefined) return 'Unknown';
  if (age < 18) return '<18';
  if (age < 25) return '18-24';
  if (age < 35) return '25-34';
  if (age < 45) return '35-44';
  if (age < 55) return '45-54';
  return '55+';
}

/** Spec 5's filter semantics and section 3's derived figures, on the day `today` (IST). */
export function bruteForceReport(
  items: readonly Record<string, unknown>[],
  filters: BruteFilters,
  today: string,
): BruteReport {
  const statuses = new Set<string>(filters.statuses && filters.statuses.length > 0 ? filters.statuses : STATUSES);
  const districts = filters.districts && filters.districts.length > 0 ? new Set(filters.districts) : undefined;
  const start = filters.from ? istMidnight(filters.from) : -Infinity;
  const end = filters.to ? istMidnight(filters.to) + DAY_MS - 1 : Infinity;
  const report: BruteReport = {
    total: 0,
    byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])),
    byDistrict: {},
    byGender: { Male: 0, Female: 0, Unknown: 0 },
    byMember: { Yes: 0, No: 0 },
    byAge: { '<18': 0, '18-24': 0, '25-34': 0, '35-44': 0, '45-54': 0, '55+': 0, Unknown: 0 },
    members: 0,
    perDay: new Map(),
    topDistricts: [],
  };
  for (const item of items) {
    const status = String(item.application_status);
    const at = Date.parse(String(item.submitted_at));
    if (!statuses.has(status) || !(at >= start && at <= end)) continue;
    const district =
      typeof item.revenue_district === 'string' && item.revenue_district ? item.revenue_district : 'Unknown';
    if (districts && !districts.has(district)) continue;
    if (filters.campaign !== undefined && item.campaign_id !== filters.campaign) continue;
    report.total += 1;
    report.byStatus[status]! += 1;
    report.byDistrict[district] = (report.byDistrict[district] ?? 0) + 1;
    report.byGender[item.gender === 'Male' || item.gender === 'Female' ? item.gender : 'Unknown']! += 1;
    report.byMember[item.is_already_member === true ? 'Yes' : 'No']! += 1;
    report.byAge[bucketOf(item.date_of_birth, today)]! += 1;
    if (status === 'approved' && typeof item.member_number === 'string') report.members += 1;
    const day = istDayOf(at);
    const point = report.perDay.get(day) ?? { total: 0, byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])) };
    point.total += 1;
    point.byStatus[status]! += 1;
    report.perDay.set(day, point);
    if (!report.firstDay || day < report.firstDay) report.firstDay = day;
    if (!report.lastDay || day > report.lastDay) report.lastDay = day;
  }
  report.topDistricts = Object.entries(report.byDistrict)
    .map(([district, count]) => ({ district, count }))
    .sort((a, b) => b.count - a.count || a.district.localeCompare(b.district))
    .slice(0, 10);
  return report;
}

/** Applications and approvals per campaign within the filters (less the campaign's own), most first, ten. */
export function bruteTopCampaigns(items: readonly Record<string, unknown>[], filters: BruteFilters, today: string) {
  const campaigns = [...new Set(items.map((i) => i.campaign_id).filter((c): c is string => typeof c === 'string'))];
  return campaigns
    .filter((c) => filters.campaign === undefined || c === filters.campaign)
    .map((campaign) => {
      const report = bruteForceReport(items, { ...filters, campaign }, today);
      return { campaign, applications: report.total, approved: report.byStatus.approved ?? 0 };
    })
    .filter((c) => c.applications > 0)
    .sort((a, b) => b.applications - a.applications || (a.campaign < b.campaign ? -1 : 1))
    .slice(0, 10);
}

/** The "Referrals" tile by brute force (issue 19): the report of the referred items alone. */
export function bruteReferrals(items: readonly Record<string, unknown>[], filters: BruteFilters, today: string) {
  const report = bruteForceReport(
    items.filter((i) => typeof i.referrer_id === 'string'),
    filters,
    today,
  );
  return { applications: report.total, approved: report.byStatus.approved ?? 0 };
}

/**
 * "Top recruiters" by brute force: per referrer, the counted items they brought of all
 * time (any day and status) within the districts and campaign, and those approved; the
 * ten with the most approved (ties: most brought, then id), approved ones only.
 */
export function bruteTopReferrers(items: readonly Record<string, unknown>[], filters: BruteFilters, today: string) {
  const referrers = [...new Set(items.map((i) => i.referrer_id).filter((r): r is string => typeof r === 'string'))];
  const scope = { districts: filters.districts, campaign: filters.campaign };
  return referrers
    .map((referrer) => {
      const report = bruteForceReport(
        items.filter((i) => i.referrer_id === referrer),
        scope,
        today,
      );
      return { referrer, brought: report.total, approved: report.byStatus.approved ?? 0 };
    })
    .filter((r) => r.approved > 0)
    .sort((a, b) => b.approved - a.approved || b.brought - a.brought || (a.referrer < b.referrer ? -1 : 1))
    .slice(0, 10);
}
