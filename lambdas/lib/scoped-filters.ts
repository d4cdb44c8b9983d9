import type { ReportFilters } from '../../rules/report';
import type { ApplicationFilters } from '../../rules/staff-api';
import { districtsToRead, scopeDistrictIds, type StaffScope } from '../../rules/staff-scope';

// A staff member's district scope (issue 17) applied to what a route reads: the filters
// they asked for, narrowed to their districts. Undefined means nothing asked for is in
// the scope: the route answers an empty page (or report) without reading anything.

/**
 * The dashboard's filters (one district at most) plus the districts a scope reads when
 * they are more than that one: a coordinator of Chennai and Tiruvallur asking for every
 * district reads both. Absent: the filter's district, or every district.
 */
export type ScopedApplicationFilters = ApplicationFilters & { readonly districts?: readonly string[] };

/** The districts the listing reads; empty for every district (and Unknown). */
export const districtsOf = (filters: ScopedApplicationFilters): readonly string[] =>
  filters.districts ?? (filters.district ? [filters.district] : []);

/** The dashboard's filters within the scope; undefined when the district asked for is outside it. */
export function scopeApplicationFilters(
  scope: StaffScope,
  filters: ApplicationFilters,
): ScopedApplicationFilters | undefined {
  if (!scope.districts) return filters;
  const districts = districtsToRead(scope, filters.district ? [filters.district] : []);
  return districts && { ...filters, districts };
}

/** The report's filters within the scope; undefined when none of the districts asked for is in it. */
export function scopeReportFilters(scope: StaffScope, filters: ReportFilters): ReportFilters | undefined {
  const districts = districtsToRead(scope, filters.districts);
  return districts && { ...filters, districts };
}

/** What an export's audit entry and its file name say of the scope: the district ids, or 'all'. */
export type ExportScope = readonly string[] | 'all';

export const exportScopeOf = (scope: StaffScope): ExportScope => (scope.districts ? scopeDistrictIds(scope) : 'all');
