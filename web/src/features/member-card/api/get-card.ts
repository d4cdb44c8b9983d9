import { type CardView, cardViewSchema } from '../../../../../rules/member-card';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/card: the card, by the link's secret part (sent in the body, never in an address). */
export function getCard(link: string, signal?: AbortSignal): Promise<CardView> {
  return apiRequest('/card', { method: 'POST', body: { link }, schema: cardViewSchema, signal });
}
