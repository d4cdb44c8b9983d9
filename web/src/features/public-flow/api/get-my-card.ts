import { type MyCardResponse, myCardResponseSchema } from '../../../../../rules/member-card';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/card/mine: the member's card link, by the verification of their number (not spent). */
export function getMyCard(verificationToken: string): Promise<MyCardResponse> {
  return apiRequest('/card/mine', { method: 'POST', body: { verificationToken }, schema: myCardResponseSchema });
}
