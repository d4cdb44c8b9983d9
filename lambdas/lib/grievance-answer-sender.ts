import type { OtpChannel } from '../../rules/api';
import { maskPhone } from '../../rules/phone';
import type { DeliveryStore } from '../adapters/deliveries';
import type { Grievance, GrievanceStore } from '../adapters/grievances';
import type { SmsGateway } from '../adapters/sms';
import { type MessageGateway, whatsAppRefusal } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import { isRateLimited } from './decision-notice-sender';
import type { OtpChannelMode, SmsTemplates, WhatsappNoticeTemplate } from './env';
import type { GrievanceLinks } from './grievance-links';
import { logger } from './logger';
import { countBy } from './metrics';
import { providerFailureFields } from './provider-failure';

// The answer to a grievance (issue 21, docs/MESSAGING.md "A grievance's answer"), for the
// outbound consumer. The message names the ticket only; the consumer reads it (the number,
// the language, the answer) and sends by the stage's channels as a decision notice goes:
// the WhatsApp utility template with the reference and the answer as its two parameters,
// or the DLT SMS template with the reference and the answer page's link (a DLT variable
// holds 30 characters: the answer itself cannot go by SMS), SMS after a WhatsApp refusal
// other than its rate. At most once: the consumer's idempotency, and the ticket's
// `answer_sent_at`, written once the provider accepted it.

export interface GrievanceAnswerSettings {
  /** OTP_CHANNELS: the stage's channels serve the answers too. */
  readonly channels: OtpChannelMode;
  /** WHATSAPP_GRIEVANCE_TEMPLATE; undefined: by SMS only. */
  readonly whatsappTemplate: WhatsappNoticeTemplate | undefined;
  /** SMS_TEMPLATES (grievanceAnswer); undefined: no SMS. */
  readonly smsTemplates: SmsTemplates | undefined;
}

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

interface SendingContext {
  readonly deliveries?: Pick<DeliveryStore, 'recordAccepted'>;
  readonly pace: (channel: OtpChannel) => Promise<void>;
  readonly clock: () => Date;
  /** Best effort after a send the provider accepted: a failure must not make the message retry (and send again). */
  readonly afterAccepted: (
    what: string,
    fields: Record<string, unknown>,
    write: () => Promise<unknown>,
  ) => Promise<void>;
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

/** The channels an answer tries, in order (as decisionChannels does for a decision). */
export function grievanceAnswerChannels(settings: GrievanceAnswerSettings): OtpChannel[] {
  const whatsapp = settings.channels !== 'sms' && settings.whatsappTemplate !== undefined;
  const sms = settings.smsTemplates?.grievanceAnswer !== undefined && (settings.channels !== 'whatsapp' || !whatsapp);
  return [...(whatsapp ? (['whatsapp'] as const) : []), ...(sms ? (['sms'] as const) : [])];
}

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

  /** By the stage's channels in order: the next only when the one before refused for a reason other than its rate. */
  const send = async (ticket: Grievance & { answer: string }) => {
    const plan = grievanceAnswerChannels(deps.settings);
    if (plan.length === 0)
      throw new GrievanceAnswerNotConfiguredError('No grievance template for the stage’s channels');
    for (const [i, channel] of plan.entries()) {
      try {
        return { channel, messageId: await sendBy(channel, ticket) };
      } catch (error) {
        if (i === plan.length - 1 || isRateLimited(error)) throw error;
        logger.warn('WhatsApp refused a grievance answer; sending it by SMS', {
          grievanceId: ticket.id,
          refusal: whatsAppRefusal(error),
          ...providerFailureFields(error),
        });
      }
    }
    throw new GrievanceAnswerNotConfiguredError('No channel left');
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
