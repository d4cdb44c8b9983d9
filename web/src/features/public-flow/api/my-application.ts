import {
  type CorrectionResponse,
  correctionResponseSchema,
  type MyApplication,
  myApplicationResponseSchema,
  type WithdrawResponse,
  withdrawResponseSchema,
} from '../../../../../rules/my-application';
import { apiRequest } from '../../../lib/api-client';

// "My application" (issue 21): both by the verification of the number (read, not spent).

/** POST /api/me: everything held about the applicant. */
export function getMyApplication(verificationToken: string): Promise<MyApplication> {
  return apiRequest('/me', { method: 'POST', body: { verificationToken }, schema: myApplicationResponseSchema });
}

/** POST /api/me/withdraw: the application is erased. */
export function withdrawMyApplication(verificationToken: string): Promise<WithdrawResponse> {
  return apiRequest('/me/withdraw', { method: 'POST', body: { verificationToken }, schema: withdrawResponseSchema });
}

/** POST /api/me/correct: the changed fields only; `changed` names those that were. */
export function correctMyApplication(
  verificationToken: string,
  changes: Record<string, string>,
): Promise<CorrectionResponse> {
  return apiRequest('/me/correct', {
    method: 'POST',
    body: { verificationToken, changes },
    schema: correctionResponseSchema,
  });
}
