// Meta's error answers as the WhatsApp sandbox sends them: the Graph API error object,
// and the same codes as `errors[]` of a `failed` status callback. Codes, titles, details
// and HTTP statuses from Meta's "Error codes" reference for the Cloud API
// (developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes).
import type { ServerResponse } from 'node:http';
import { randomId, sendJson } from './http-util';

export interface MetaError {
  status: number;
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  details?: string;
}

export function sendMetaError(res: ServerResponse, error: MetaError): void {
  sendJson(res, error.status, {
    error: {
      message: error.message,
      type: error.type,
      code: error.code,
      ...(error.error_subcode !== undefined && { error_subcode: error.error_subcode }),
      ...(error.details !== undefined && { error_data: { messaging_product: 'whatsapp', details: error.details } }),
      fbtrace_id: randomId(12),
    },
  });
}

/** A Meta error as one entry of a status callback's `errors[]`. */
export function webhookError(error: MetaError): {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
} {
  const title = error.message.replace(/^\(#\d+\)\s*/, '');
  return {
    code: error.code,
    title,
    message: title,
    error_data: { details: error.details ?? title },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

export const unknownObject = (id: string): MetaError => ({
  status: 400,
  message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
  type: 'GraphMethodException',
  code: 100,
  error_subcode: 33,
});

export const invalidParameter = (details: string): MetaError => ({
  status: 400,
  message: '(#100) Invalid parameter',
  type: 'OAuthException',
  code: 100,
  details,
});

export const metaErrors = {
  somethingWentWrong: {
    status: 500,
    message: '(#131000) Something went wrong',
    type: 'OAuthException',
    code: 131000,
    details: 'Something went wrong',
  },
  undeliverable: {
    status: 400,
    message: '(#131026) Message undeliverable',
    type: 'OAuthException',
    code: 131026,
    details: 'Message undeliverable',
  },
  // Meta's table gives 429 Too Many Requests for 130429 (the others below are 400 or 403);
  // the adapter decides by `code`, never by the HTTP status.
  throughput: {
    status: 429,
    message: '(#130429) Rate limit hit',
    type: 'OAuthException',
    code: 130429,
    details: 'Cloud API message throughput has been reached.',
  },
  spamLimit: {
    status: 400,
    message: '(#131048) Spam rate limit hit',
    type: 'OAuthException',
    code: 131048,
    details:
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.',
  },
  pairLimit: {
    status: 400,
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    type: 'OAuthException',
    code: 131056,
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  accountBlocked: {
    status: 403,
    message: '(#368) Temporarily blocked for policies violations',
    type: 'OAuthException',
    code: 368,
    details:
      'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.',
  },
  accountLocked: {
    status: 403,
    message: '(#131031) Business Account locked',
    type: 'OAuthException',
    code: 131031,
    details:
      'The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy, or we were unable to verify data included in the request against data set on the WhatsApp Business Account.',
  },
  /**
   * The unique-recipient cap of the messaging tier. Meta documents no error code of its
   * own for it (its messaging-limits page says only that messages beyond the limit are not
   * sent; third-party write-ups say "no dedicated code documented"). We answer the spam
   * rate limit 131048, which is what the product treats as "not by WhatsApp now"; the
   * details say which limit it was.
   */
  tierLimit: {
    status: 400,
    message: '(#131048) Spam rate limit hit',
    type: 'OAuthException',
    code: 131048,
    details:
      'Message failed to send because the business has reached its messaging limit of unique customers in a rolling 24-hour period (sandbox: messaging tier).',
  },
  templateLanguage: (name: string, language: string): MetaError => ({
    status: 404,
    message: '(#132001) Template name does not exist in the translation',
    type: 'OAuthException',
    code: 132001,
    details: `template name (${name}) does not exist in ${language}`,
  }),
  templateParameters: (details: string): MetaError => ({
    status: 400,
    message: '(#132000) Number of parameters does not match the expected number of params',
    type: 'OAuthException',
    code: 132000,
    details,
  }),
  /** A text parameter with a line break, a tab or more than four spaces in a row. */
  templateParameterFormat: (name: string): MetaError => ({
    status: 400,
    message: '(#132018) There was an issue with the parameters in your template.',
    type: 'OAuthException',
    code: 132018,
    details: `template ${name}: param text cannot have new-line/tab characters or more than 4 consecutive spaces`,
  }),
} satisfies Record<string, MetaError | ((...args: string[]) => MetaError)>;
