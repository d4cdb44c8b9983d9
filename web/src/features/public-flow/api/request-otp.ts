import { type OtpRequestResponse, otpRequestResponseSchema } from '../../../../../rules/api';
import type { OtpRequest } from '../../../../../rules/application';
import { apiRequest, type RetryNotice } from '../../../lib/api-client';

export interface RequestOtpOptions {
  readonly signal?: AbortSignal;
  /** The service is busy and the request will be tried again: the page says so meanwhile. */
  readonly onRetry?: (notice: RetryNotice) => void;
}

/**
 * POST /api/otp/request: the server checks the captcha and sends a code by WhatsApp or SMS
 * (the stage chooses; `switchToSms` asks for SMS instead of an undelivered WhatsApp send).
 */
export function requestOtp(input: OtpRequest, options: RequestOtpOptions = {}): Promise<OtpRequestResponse> {
  return apiRequest('/otp/request', { method: 'POST', body: input, schema: otpRequestResponseSchema, ...options });
}
