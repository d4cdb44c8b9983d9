import { SmsError } from '../adapters/sms';
import { WhatsAppError } from '../adapters/whatsapp';

/** Log fields of a provider's refusal: the error's kind and the provider's codes; never a number or a payload. */
export function providerFailureFields(error: unknown): Record<string, unknown> {
  if (error instanceof WhatsAppError) {
    return {
      errorName: error.name,
      failure: error.failure,
      providerCode: error.provider.code,
      httpStatus: error.provider.status,
    };
  }
  if (error instanceof SmsError)
    return { errorName: error.name, failure: error.failure, providerCode: error.providerCode };
  return { errorName: error instanceof Error ? error.name : typeof error };
}
