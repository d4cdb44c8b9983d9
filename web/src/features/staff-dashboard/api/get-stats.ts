import { type StatsResponse, statsResponseSchema } from '../../../../../rules/report';
import { staffRequest } from '../../../lib/staff-session';

/** GET /api/admin/stats: all-time totals per status, from the rollups. */
export function getStats(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<StatsResponse> {
  return staffRequest(getIdToken, '/admin/stats', { schema: statsResponseSchema, signal });
}
