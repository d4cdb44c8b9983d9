import {
  type StaffAction,
  type StaffAssignment,
  type StaffInvite,
  type StaffInviteResponse,
  staffInviteResponseSchema,
  type StaffListResponse,
  staffListResponseSchema,
} from '../../../../../rules/staff-admin';
import { staffRequest } from '../../../lib/staff-session';

// The Staff page's calls (lambdas/handlers/staff-admin.ts), admins only: the server
// refuses anyone else whatever the page shows.

/** GET /api/admin/staff: every member of the staff pool. */
export function listStaffMembers(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<StaffListResponse> {
  return staffRequest(getIdToken, '/admin/staff', { schema: staffListResponseSchema, signal });
}

/** POST /api/admin/staff: an invitation (Cognito e-mails the temporary password; locally it is answered). */
export function inviteStaffMember(
  getIdToken: () => Promise<string>,
  invite: StaffInvite,
): Promise<StaffInviteResponse> {
  return staffRequest(getIdToken, '/admin/staff', { method: 'POST', body: invite, schema: staffInviteResponseSchema });
}

export type StaffChange =
  | { readonly action: 'assign'; readonly sub: string; readonly assignment: StaffAssignment }
  | { readonly action: Exclude<StaffAction, 'assign'>; readonly sub: string };

/** POST /api/admin/staff/{sub}/{action}: a role and districts, disable, enable or an authenticator reset. */
export function changeStaffMember(getIdToken: () => Promise<string>, change: StaffChange) {
  return staffRequest(getIdToken, `/admin/staff/${encodeURIComponent(change.sub)}/${change.action}`, {
    method: 'POST',
    body: change.action === 'assign' ? change.assignment : {},
    schema: staffInviteResponseSchema,
  });
}
