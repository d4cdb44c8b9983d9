import { type ApplicationDetail, applicationDetailSchema } from '../../../../../rules/staff-api';
import { staffRequest } from '../../../lib/staff-session';

/** GET /api/admin/applications/{id}: the application and its audit trail, newest entry first. */
export function getApplication(
  getIdToken: () => Promise<string>,
  id: string,
  signal?: AbortSignal,
): Promise<ApplicationDetail> {
  return staffRequest(getIdToken, `/admin/applications/${encodeURIComponent(id)}`, {
    schema: applicationDetailSchema,
    signal,
  });
}
