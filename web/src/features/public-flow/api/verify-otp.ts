import { type OtpVerifyResponse, otpVerifyResponseSchema } from '../../../../../rules/api';
import type { OtpVerifyRequest } from '../../../../../rules/application';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/otp/verify: a right code is exchanged for a short-lived verification token. */
export function verifyOtp(input: OtpVerifyRequest, signal?: AbortSignal): Promise<OtpVerifyResponse> {
  return apiRequest('/otp/verify', { method: 'POST', body: input, schema: otpVerifyResponseSchema, signal });
}
