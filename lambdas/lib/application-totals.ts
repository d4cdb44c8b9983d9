import { applicationStatuses } from '../../rules/application';
import type { RollupsReader } from '../adapters/rollups-reader';
import { reportTotal } from './rollups-report';
import { districtsOf, type ScopedApplicationFilters } from './scoped-filters';

/**
 * The exact total: from the rollups (a few items, whatever the number of applications),
 * except for a text search, which rollups cannot answer and the search index counts.
 */
export function totalFromRollups(
  rollups: RollupsReader,
  countSearch: (f: ScopedApplicationFilters & { readonly q: string }) => Promise<number>,
  clock: () => Date,
) {
  return (filters: ScopedApplicationFilters): Promise<number> =>
    filters.q
      ? countSearch({ ...filters, q: filters.q })
      : reportTotal(
          rollups,
          {
            from: filters.from ?? null,
            to: filters.to ?? null,
            statuses: filters.status ? [filters.status] : applicationStatuses,
            districts: districtsOf(filters),
            campaign: filters.campaign ?? null,
          },
          clock(),
        );
}
