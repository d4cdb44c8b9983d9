import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export interface RequestOtpInput {
  /** 10 digits, already valid by rules/phone.ts. */
  readonly phone: string;
}

// The OTP endpoint and its response shape arrive with the public-flow issue (which
// also adds the captcha token); until then any JSON object counts as "sent".
const requestOtpResponseSchema = z.object({});

/** POST /api/otp/request: asks the server to send a code to the number over WhatsApp. */
export async function requestOtp(input: RequestOtpInput, signal?: AbortSignal): Promise<void> {
  await apiRequest('/otp/request', {
    method: 'POST',
    body: { phone: input.phone },
    schema: requestOtpResponseSchema,
    signal,
  });
}
