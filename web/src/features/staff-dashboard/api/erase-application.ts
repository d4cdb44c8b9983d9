import { z } from 'zod';
import { staffRequest } from '../../../lib/staff-session';

const eraseResponseSchema = z.object({ erased: z.string() });

/** DELETE /api/admin/applications/{id}: erasure on request, admins only. */
export function eraseApplication(getIdToken: () => Promise<string>, id: string): Promise<{ erased: string }> {
  return staffRequest(getIdToken, `/admin/applications/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: eraseResponseSchema,
  });
}
