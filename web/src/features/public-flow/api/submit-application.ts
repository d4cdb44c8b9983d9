import { type SubmitResponse, submitResponseSchema } from '../../../../../rules/api';
import type { ApplicationFields } from '../../../../../rules/application';
import type { Attribution } from '../../../../../rules/campaigns';
import { TERMS_VERSION } from '../../../../../rules/application-values';
import { apiRequest } from '../../../lib/api-client';
import type { Language } from '../../../i18n/language';

export interface SubmitApplicationInput {
  readonly verificationToken: string;
  readonly language: Language;
  /** Already checked by the shared schema. */
  readonly application: ApplicationFields;
  /** Where the visitor came from (first touch, utils/attribution.ts); absent when the link said nothing. */
  readonly attribution?: Attribution;
}

/** POST /api/applications: stores the application with its consent record. */
export function submitApplication(input: SubmitApplicationInput, signal?: AbortSignal): Promise<SubmitResponse> {
  return apiRequest('/applications', {
    method: 'POST',
    body: { ...input, termsVersion: TERMS_VERSION },
    schema: submitResponseSchema,
    signal,
  });
}
