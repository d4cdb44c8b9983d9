import {
  type StatusChangeRequest,
  type StatusChangeResponse,
  statusChangeResponseSchema,
} from '../../../../../rules/staff-api';
import { staffRequest } from '../../../lib/staff-session';

/** POST /api/admin/applications/status: admins only (a viewer gets 403). */
export function changeStatus(
  getIdToken: () => Promise<string>,
  request: StatusChangeRequest,
): Promise<StatusChangeResponse> {
  return staffRequest(getIdToken, '/admin/applications/status', {
    method: 'POST',
    body: request,
    schema: statusChangeResponseSchema,
  });
}
