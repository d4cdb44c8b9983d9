import { z } from 'zod';
import { staffRequest } from '../../../lib/staff-session';

/** GET /api/admin/me: who the API sees, with the role it grants. */
const meResponseSchema = z.object({
  email: z.string(),
  groups: z.array(z.string()),
  role: z.enum(['admin', 'viewer']),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export function getMe(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<MeResponse> {
  return staffRequest(getIdToken, '/admin/me', { schema: meResponseSchema, signal });
}
