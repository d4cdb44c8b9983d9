import { type CardAction, cardActionResponseSchema, type StaffCard } from '../../../../../rules/member-card';
import { staffRequest } from '../../../lib/staff-session';

/** POST /api/admin/applications/{id}/card: revoke or reissue the member's card (admins only, audited). */
export async function cardAction(
  getIdToken: () => Promise<string>,
  id: string,
  action: CardAction,
): Promise<StaffCard> {
  const { card } = await staffRequest(getIdToken, `/admin/applications/${encodeURIComponent(id)}/card`, {
    method: 'POST',
    body: { action },
    schema: cardActionResponseSchema,
  });
  return card;
}
