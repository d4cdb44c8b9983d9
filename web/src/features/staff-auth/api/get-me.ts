import * as v from 'valibot';
import { staffRoles } from '../../../../../rules/staff-scope';
import { staffRequest } from '../../../lib/staff-session';

/** GET /api/admin/me: who the API sees, with the role it grants and their districts (ids; none: every district). */
const meResponseSchema = v.object({
  email: v.string(),
  groups: v.array(v.string()),
  role: v.picklist(staffRoles),
  districts: v.optional(v.array(v.string()), []),
});
export type MeResponse = v.InferOutput<typeof meResponseSchema>;

export function getMe(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<MeResponse> {
  return staffRequest(getIdToken, '/admin/me', { schema: meResponseSchema, signal });
}
