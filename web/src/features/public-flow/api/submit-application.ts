import { type SubmitResponse, submitResponseSchema } from '../../../../../rules/api';
import type { ApplicationFields } from '../../../../../rules/application';
import type { Attribution } from '../../../../../rules/attribution';
import { TERMS_VERSION } from '../../../../../rules/application-values';
import { apiRequest } from '../../../lib/api-client';
import type { Language } from '../../../i18n/language';

export interface SubmitApplicationInput {
  readonly verificationToken: string;
  readonly language: Language;
  /** Already checked by the shared schema. */
  readonly application: ApplicationFields;
  /** Where a link said the visitor came from (utils/attribution.ts: first touch, malformed parts dropped). */
  readonly attribution?: Attribution;
}

/**
 * POST /api/applications: stores the application with its consent record, and the
 * attribution when there is any (the server freezes it on the application).
 */
export function submitApplication(
  { attribution, ...input }: SubmitApplicationInput,
  signal?: AbortSignal,
): Promise<SubmitResponse> {
  const attributed = attribution && Object.keys(attribution).length > 0;
  return apiRequest('/applications', {
    method: 'POST',
    body: { ...input, termsVersion: TERMS_VERSION, ...(attributed && { attribution }) },
    schema: submitResponseSchema,
    signal,
  });
}
