import * as v from 'valibot';
import { maskPhone } from '../../rules/phone';
import { notArray } from '../../rules/schema';
import type { DeliveryStore } from '../adapters/deliveries';
import { type MessageGateway, whatsAppRefusal } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import { logger } from './logger';
import { countBy } from './metrics';
import type { SendingContext as TemplateSendingContext } from './template-channels';

// The WhatsApp welcome of one queued message, for the outbound consumer: in the
// applicant's language, skipped when WhatsApp cannot take it (the tier is full for a new
// recipient, or the number has no WhatsApp), and recorded once the provider accepted it.

export interface WelcomeDeps {
  readonly gateway: () => Promise<Pick<MessageGateway, 'sendWelcome'>>;
  /**
   * The stage's WhatsApp messaging tier. A welcome to a number WhatsApp has not had from
   * us in 24 hours, once the tier is full, would be refused (131048) again and again:
   * it is skipped (the code went by SMS for the same reason). Recipients are counted.
   */
  readonly whatsappTier?: {
    readonly limit: number;
    readonly recipients: Pick<WhatsAppRecipients, 'count' | 'isRecent' | 'record'>;
  };
  /** Accepted messages, for their delivery status. */
  readonly deliveries?: Pick<DeliveryStore, 'recordAccepted'>;
}

/** What a welcome leaves in its idempotency record: no personal data. */
export type WelcomeResult =
  | { kind: 'welcome'; messageId: string }
  /** No WhatsApp welcome can reach this number now: the tier is full, or WhatsApp says it is undeliverable (131026). */
  | { kind: 'welcome'; skipped: 'whatsapp-tier-full' | 'whatsapp-undeliverable' };

/** The consumer's sending context (template-channels.ts), paced on WhatsApp alone. */
type SendingContext = Pick<TemplateSendingContext, 'clock' | 'afterAccepted'> & {
  /** Waits for WhatsApp's pacer. */
  readonly pace: () => Promise<void>;
};

const phoneSchema = v.object({ phone_number: v.pipe(v.string(), v.regex(/^\d{12}$/)) });
/** The language applied in (the consent record keeps it; older rows: English). */
const welcomeSchema = v.object({
  ...phoneSchema.entries,
  language: v.optional(v.picklist(['en', 'ta'])),
  consent: v.optional(notArray(v.object({ language: v.optional(v.picklist(['en', 'ta'])) }))),
});

export function makeWelcomeSender(deps: WelcomeDeps, { pace, clock, afterAccepted }: SendingContext) {
  const kind = 'welcome';
  return async (applicationId: string, application: Record<string, unknown>): Promise<WelcomeResult> => {
    const welcome = v.parse(welcomeSchema, application);
    const phone = welcome.phone_number;
    const language = welcome.language ?? welcome.consent?.language ?? 'en';
    const tier = deps.whatsappTier;
    if (tier && tier.limit > 0 && (await tier.recipients.count(clock())) >= tier.limit) {
      if (!(await tier.recipients.isRecent(phone, clock()))) {
        logger.info('Welcome skipped: the WhatsApp tier is full', { applicationId });
        countBy('OutboundSkipped', 'kind', 'welcome-tier-full');
        return { kind, skipped: 'whatsapp-tier-full' };
      }
    }
    await pace();
    let messageId: string;
    try {
      messageId = await (await deps.gateway()).sendWelcome(phone, language);
    } catch (error) {
      // No WhatsApp on the number: retrying cannot help, and the queue would only fill its dead letters.
      if (whatsAppRefusal(error) !== 'undeliverable') throw error;
      logger.info('Welcome skipped: WhatsApp cannot deliver to this number', { applicationId });
      countBy('OutboundSkipped', 'kind', 'welcome-undeliverable');
      return { kind, skipped: 'whatsapp-undeliverable' };
    }
    await afterAccepted('the recipient count', { applicationId, kind }, async () =>
      tier?.recipients.record(phone, clock()),
    );
    await afterAccepted('the accepted message', { applicationId, kind }, async () =>
      deps.deliveries?.recordAccepted(
        { channel: 'whatsapp', messageId },
        { purpose: 'welcome', applicationId },
        clock(),
      ),
    );
    countBy('MessageAccepted', 'channel', 'whatsapp');
    logger.info('Welcome message sent', { applicationId, phone: maskPhone(phone) });
    return { kind, messageId };
  };
}
