import type { OtpChannel } from '../../rules/api';
import { maskPhone } from '../../rules/phone';
import type { SmsGateway } from '../adapters/sms';
import { type MessageGateway, whatsAppRefusal } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import type { WithdrawalConfirmation, WithdrawalConfirmationStore } from '../adapters/withdrawal-confirmations';
import { logger } from './logger';
import { countBy } from './metrics';
import { providerFailureFields } from './provider-failure';
import { type SendingContext, sendByChannels, type TemplateSettings, templateChannels } from './template-channels';

// The confirmation of an applicant's own withdrawal (issue 21, docs/MESSAGING.md), for the
// outbound consumer. The application is erased: the number and the language come from the
// `WITHDRAWN#<id>` item its withdrawal left, which goes once the provider accepted the
// message (its TTL, a day, takes it otherwise). By the stage's channels as a decision
// notice goes: the WhatsApp utility template in the language applied in, or the DLT SMS
// template, SMS after a WhatsApp refusal other than its rate. At most once: the consumer's
// idempotency keeps a redelivered message from sending again, and a message whose item is
// gone (sent, or expired) sends nothing.

/** The confirmations' settings: WHATSAPP_WITHDRAWAL_TEMPLATE and SMS_TEMPLATES' `withdrawn`. */
export type WithdrawalSettings = TemplateSettings;

/** What the confirmations need; without it a `withdrawn` message fails (and ends in the dead-letter queue). */
export interface WithdrawalDeps {
  readonly settings: WithdrawalSettings;
  readonly whatsapp: () => Promise<Pick<MessageGateway, 'sendTemplate'>>;
  readonly sms: () => Promise<Pick<SmsGateway, 'send'>>;
  readonly confirmations: WithdrawalConfirmationStore;
  /** The unique WhatsApp recipients of the last 24 hours (the messaging tier's count). */
  readonly recipients?: Pick<WhatsAppRecipients, 'record'>;
}

/** What a `withdrawn` message came to (kept in the idempotency record: no personal data). */
export type WithdrawnResult =
  | { kind: 'withdrawn'; channel: OtpChannel; messageId: string }
  /** Its item is gone: the confirmation went before, or its day passed. */
  | { kind: 'withdrawn'; skipped: 'nothing-to-send' };

/** Neither a WhatsApp template nor an SMS template for the stage's channels. */
export class WithdrawalNotConfiguredError extends Error {
  override name = 'WithdrawalNotConfiguredError';
}

/** The channels a confirmation tries, in order. */
export const withdrawalChannels = (settings: WithdrawalSettings) => templateChannels(settings, 'withdrawn');

export function makeWithdrawalSender(deps: WithdrawalDeps, context: SendingContext) {
  const kind = 'withdrawn';
  const sendBy = async (channel: OtpChannel, to: WithdrawalConfirmation): Promise<string> => {
    await context.pace(channel);
    if (channel === 'whatsapp') {
      const template = deps.settings.whatsappTemplate!;
      // The template has no variable: it names nobody, and nothing of the application is left to name.
      return (await deps.whatsapp()).sendTemplate(to.phone, template.name, template.languages[to.language], []);
    }
    const pair = deps.settings.smsTemplates!.withdrawn!;
    // Tamil where a Tamil template is registered, else English.
    const template = (to.language === 'ta' ? pair.ta : undefined) ?? pair.en;
    return (await deps.sms()).send(to.phone, template, []);
  };

  const send = async (applicationId: string, to: WithdrawalConfirmation) => {
    const plan = withdrawalChannels(deps.settings);
    if (plan.length === 0) throw new WithdrawalNotConfiguredError('No withdrawal template for the stage’s channels');
    return sendByChannels(
      plan,
      (channel) => sendBy(channel, to),
      (error) =>
        logger.warn('WhatsApp refused a withdrawal confirmation; sending it by SMS', {
          applicationId,
          refusal: whatsAppRefusal(error),
          ...providerFailureFields(error),
        }),
    );
  };

  return async (applicationId: string): Promise<WithdrawnResult> => {
    const to = await deps.confirmations.get(applicationId, context.clock());
    if (!to) {
      logger.info('Withdrawal confirmation sent before or expired; nothing to send', { applicationId });
      return { kind, skipped: 'nothing-to-send' };
    }
    const { channel, messageId } = await send(applicationId, to);
    const sentAt = context.clock();
    const fields = { applicationId, kind, channel };
    const recipients = deps.recipients;
    // Independent writes, at once: the accepted message, the tier's count, and the number's item goes.
    await Promise.all([
      context.afterAccepted('the accepted message', fields, async () =>
        context.deliveries?.recordAccepted({ channel, messageId }, { purpose: kind, applicationId }, sentAt),
      ),
      channel === 'whatsapp' && recipients
        ? context.afterAccepted('the WhatsApp recipient', fields, () => recipients.record(to.phone, sentAt))
        : undefined,
      // Not deleted, it stays until its TTL (a day): failing the message would send it again.
      deps.confirmations.remove(applicationId).catch((error: unknown) =>
        logger.error('Could not delete the withdrawal confirmation’s item after the send; its TTL removes it', {
          ...fields,
          ...providerFailureFields(error),
        }),
      ),
    ]);
    // Counted by kind as every outbound message is (OutboundDelivered), and as an accepted message here.
    countBy('MessageAccepted', 'channel', channel);
    logger.info('Withdrawal confirmation sent', { ...fields, phone: maskPhone(to.phone) });
    return { kind, channel, messageId };
  };
}
