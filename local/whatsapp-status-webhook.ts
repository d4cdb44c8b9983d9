// Status callbacks as Meta posts them to a WhatsApp Business Account's webhook: the
// `messages` field's `statuses[]` (Meta's "Status messages webhook reference"), signed
// with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`
// ("Webhooks: event notifications", payload validation).
import { createHmac } from 'node:crypto';
import type { MetaError } from './whatsapp-errors';
import { webhookError } from './whatsapp-errors';

export type WhatsAppStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusWebhookTarget {
  readonly url: string;
  readonly appSecret: string;
}

export interface StatusUpdate {
  readonly messageId: string;
  readonly status: WhatsAppStatus;
  /** The recipient's WhatsApp id (91-prefixed digits). */
  readonly recipientId: string;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Pricing category of the template (authentication, utility, marketing); none for text. */
  readonly category?: string;
  readonly error?: MetaError;
}

export interface Business {
  readonly wabaId: string;
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
}

/** The body Meta posts for one status of one message. */
function statusWebhookBody(business: Business, update: StatusUpdate): unknown {
  const billable = update.status !== 'failed' && update.category !== undefined;
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: business.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: business.displayPhoneNumber, phone_number_id: business.phoneNumberId },
              statuses: [
                {
                  id: update.messageId,
                  status: update.status,
                  // Meta sends epoch seconds as a string.
                  timestamp: String(Math.floor(update.at / 1000)),
                  recipient_id: update.recipientId,
                  ...(billable && {
                    pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: update.category },
                  }),
                  ...(update.error && { errors: [webhookError(update.error)] }),
                },
              ],
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}

function signature(appSecret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Posts one callback; resolves with the HTTP status, or throws on a network failure. */
export async function postStatus(
  target: StatusWebhookTarget,
  business: Business,
  update: StatusUpdate,
): Promise<number> {
  const raw = JSON.stringify(statusWebhookBody(business, update));
  const response = await fetch(target.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'facebookexternalua',
      'x-hub-signature-256': signature(target.appSecret, raw),
    },
    body: raw,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}
