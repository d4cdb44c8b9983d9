import { type ListResponse, listResponseSchema } from '../../../../../rules/staff-api';
import { staffRequest } from '../../../lib/staff-session';
import { apiQuery, type ListFilters } from '../utils/list-params';

/** One page of GET /api/admin/applications: filtered and searched on the server, newest first. */
export function listApplications(
  getIdToken: () => Promise<string>,
  query: { filters: ListFilters; pageSize: number; cursor?: string },
  signal?: AbortSignal,
): Promise<ListResponse> {
  return staffRequest(getIdToken, `/admin/applications?${apiQuery(query.filters, query.pageSize, query.cursor)}`, {
    schema: listResponseSchema,
    signal,
  });
}
