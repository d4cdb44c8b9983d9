import { type CardStatusResponse, cardStatusResponseSchema } from '../../../../../rules/member-card';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/card/status: the online check (true only for a live card of an approved member). */
export function getCardStatus(token: string, signal?: AbortSignal): Promise<CardStatusResponse> {
  // One try: a steward at a door waits for no back-off; "could not check online" is an answer.
  return apiRequest('/card/status', {
    method: 'POST',
    body: { token },
    schema: cardStatusResponseSchema,
    signal,
    retry: false,
  });
}
