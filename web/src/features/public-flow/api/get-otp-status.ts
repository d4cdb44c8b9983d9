import { type OtpStatusResponse, otpStatusResponseSchema } from '../../../../../rules/api';
import type { OtpStatusRequest } from '../../../../../rules/application';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/otp/status: how the code's message is doing, and whether SMS may be offered. */
export function getOtpStatus(input: OtpStatusRequest, signal?: AbortSignal): Promise<OtpStatusResponse> {
  // Not retried: the next poll is the retry.
  return apiRequest('/otp/status', {
    method: 'POST',
    body: input,
    schema: otpStatusResponseSchema,
    signal,
    retry: false,
  });
}
