import * as v from 'valibot';
import { staffRequest } from '../../../lib/staff-session';

/** GET /api/admin/me: who the API sees, with the role it grants. */
const meResponseSchema = v.object({
  email: v.string(),
  groups: v.array(v.string()),
  role: v.picklist(['admin', 'viewer']),
});
export type MeResponse = v.InferOutput<typeof meResponseSchema>;

export function getMe(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<MeResponse> {
  return staffRequest(getIdToken, '/admin/me', { schema: meResponseSchema, signal });
}
