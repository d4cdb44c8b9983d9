import { type OtpRequestResponse, otpRequestResponseSchema } from '../../../../../rules/api';
import type { OtpRequest } from '../../../../../rules/application';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/otp/request: the server checks the captcha and sends a code over WhatsApp. */
export function requestOtp(input: OtpRequest, signal?: AbortSignal): Promise<OtpRequestResponse> {
  return apiRequest('/otp/request', { method: 'POST', body: input, schema: otpRequestResponseSchema, signal });
}
