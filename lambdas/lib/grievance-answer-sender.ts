import type { OtpChannel } from '../../rules/api';
import { maskPhone } from '../../rules/phone';
import type { Grievance, GrievanceStore } from '../adapters/grievances';
import type { SmsGateway } from '../adapters/sms';
import { type MessageGateway, whatsAppRefusal } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import type { GrievanceLinks } from './grievance-links';
import { logger } from './logger';
import { countBy } from './metrics';
import { providerFailureFields } from './provider-failure';
import { type SendingContext, sendByChannels, type TemplateSettings, templateChannels } from './template-channels';

// The answer to a grievance (issue 21, docs/MESSAGING.md "A grievance's answer"), for the
// outbound consumer. The message names the ticket only; the consumer reads it (the number,
// the language, the answer) and sends by the stage's channels as a decision notice goes:
// the WhatsApp utility template with the reference and the answer as its two parameters,
// or the DLT SMS template with the reference and the answer page's link (a DLT variable
// holds 30 characters: the answer itself cannot go by SMS), SMS after a WhatsApp refusal
// other than its rate. At most once: the consumer's idempotency, and the ticket's
// `answer_sent_at`, written once the provider accepted it.

/** The answers' settings: WHATSAPP_GRIEVANCE_TEMPLATE and SMS_TEMPLATES' `grievanceAnswer`. */
export type GrievanceAnswerSettings = TemplateSettings;

/** What the answers need; without it a `grievance-answer` message fails (and ends in the dead-letter queue). */
export interface GrievanceAnswerDeps {
  readonly settings: GrievanceAnswerSettings;
  readonly whatsapp: () => Promise<Pick<MessageGateway, 'sendTemplate'>>;
  readonly sms: () => Promise<Pick<SmsGateway, 'send'>>;
  readonly grievances: Pick<GrievanceStore, 'get' | 'markSent'>;
  /** The answer page's links (the SMS carries one). */
  readonly links: () => Promise<Pick<GrievanceLinks, 'linkOf'>>;
  /** The unique WhatsApp recipients of the last 24 hours (the messaging tier's count). */
  readonly recipients?: Pick<WhatsAppRecipients, 'record'>;
}

/** What a `grievance-answer` message came to (kept in the idempotency record: no personal data). */
export type GrievanceAnswerResult =
  | { kind: 'grievance-answer'; channel: OtpChannel; messageId: string }
  /** The ticket is gone (erased), has no answer, or its answer went before. */
  | { kind: 'grievance-answer'; skipped: 'nothing-to-send' };

/** Neither a WhatsApp template nor an SMS template for the stage's channels. */
export class GrievanceAnswerNotConfiguredError extends Error {
  override name = 'GrievanceAnswerNotConfiguredError';
}

/** The channels an answer tries, in order. */
export const grievanceAnswerChannels = (settings: GrievanceAnswerSettings) =>
  templateChannels(settings, 'grievanceAnswer');

/**
 * A template parameter as Meta takes it: no line break or tab, never more than four spaces
 * in a row (error 132018). The answer's paragraphs become one line.
 */
export const asTemplateParameter = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function makeGrievanceAnswerSender(deps: GrievanceAnswerDeps, context: SendingContext) {
  const kind = 'grievance-answer';
  const sendBy = async (channel: OtpChannel, ticket: Grievance & { answer: string }): Promise<string> => {
    await context.pace(channel);
    if (channel === 'whatsapp') {
      const template = deps.settings.whatsappTemplate!;
      return (await deps.whatsapp()).sendTemplate(ticket.phone, template.name, template.languages[ticket.language], [
        ticket.reference,
        asTemplateParameter(ticket.answer),
      ]);
    }
    const pair = deps.settings.smsTemplates!.grievanceAnswer!;
    // Tamil where a Tamil template is registered, else English.
    const template = (ticket.language === 'ta' ? pair.ta : undefined) ?? pair.en;
    const [id, mac] = (await deps.links()).linkOf(ticket.id).split('.');
    return (await deps.sms()).send(ticket.phone, template, [ticket.reference, id!, mac!]);
  };

  const send = async (ticket: Grievance & { answer: string }) => {
    const plan = grievanceAnswerChannels(deps.settings);
    if (plan.length === 0)
      throw new GrievanceAnswerNotConfiguredError('No grievance template for the stage’s channels');
    return sendByChannels(
      plan,
      (channel) => sendBy(channel, ticket),
      (error) =>
        logger.warn('WhatsApp refused a grievance answer; sending it by SMS', {
          grievanceId: ticket.id,
          refusal: whatsAppRefusal(error),
          ...providerFailureFields(error),
        }),
    );
  };

  return async (grievanceId: string): Promise<GrievanceAnswerResult> => {
    const ticket = await deps.grievances.get(grievanceId);
    if (!ticket?.answer || ticket.answerSentAt) {
      logger.info('Grievance answer sent before, or nothing to send', { grievanceId });
      return { kind, skipped: 'nothing-to-send' };
    }
    const { channel, messageId } = await send({ ...ticket, answer: ticket.answer });
    const sentAt = context.clock();
    const fields = { grievanceId, kind, channel };
    const recipients = deps.recipients;
    // Independent writes, at once: the accepted message, the tier's count, and the ticket's record of the send.
    await Promise.all([
      context.afterAccepted('the accepted message', fields, async () =>
        context.deliveries?.recordAccepted({ channel, messageId }, { purpose: 'grievance' }, sentAt),
      ),
      channel === 'whatsapp' && recipients
        ? context.afterAccepted('the WhatsApp recipient', fields, () => recipients.record(ticket.phone, sentAt))
        : undefined,
      context.afterAccepted('that the answer went', fields, () =>
        deps.grievances.markSent(grievanceId, channel, sentAt),
      ),
    ]);
    countBy('MessageAccepted', 'channel', channel);
    logger.info('Grievance answer sent', { ...fields, phone: maskPhone(ticket.phone) });
    return { kind, channel, messageId };
  };
}
