import * as v from 'valibot';
import { staffRequest } from '../../../lib/staff-session';

const eraseResponseSchema = v.object({ erased: v.string() });

/** DELETE /api/admin/applications/{id}: erasure on request, admins only. */
export function eraseApplication(getIdToken: () => Promise<string>, id: string): Promise<{ erased: string }> {
  return staffRequest(getIdToken, `/admin/applications/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: eraseResponseSchema,
  });
}
