import { type ListResponse, listResponseSchema } from '../../../../../rules/staff-api';
import { staffRequest } from '../../../lib/staff-session';
import { type ListFilters, listRequest } from '../utils/list-params';

/**
 * One page of POST /api/admin/applications/search: filtered and searched on the server,
 * newest first. A POST so that the search term stays out of URLs and CloudFront's logs.
 */
export function listApplications(
  getIdToken: () => Promise<string>,
  query: { filters: ListFilters; pageSize: number; cursor?: string; exportId?: string },
  signal?: AbortSignal,
): Promise<ListResponse> {
  return staffRequest(getIdToken, '/admin/applications/search', {
    method: 'POST',
    body: listRequest(query),
    schema: listResponseSchema,
    signal,
  });
}
