import type { OtpChannel } from '../../rules/api';
import type { DeliveryStore } from '../adapters/deliveries';
import { isRateLimited } from './decision-notice-sender';
import type { OtpChannelMode, SmsTemplates, WhatsappNoticeTemplate } from './env';

// What the outbound consumer's template messages of issue 21 share (the withdrawal's
// confirmation, a grievance's answer): the stage's channels in order, the WhatsApp template
// or the DLT SMS template, SMS after a WhatsApp refusal other than its rate.

export interface TemplateSettings {
  /** OTP_CHANNELS: the stage's channels serve these messages too. */
  readonly channels: OtpChannelMode;
  /** The message's WhatsApp template; undefined: by SMS only. */
  readonly whatsappTemplate: WhatsappNoticeTemplate | undefined;
  /** SMS_TEMPLATES; the message's own pair among them, or none: no SMS. */
  readonly smsTemplates: SmsTemplates | undefined;
}

/** What the consumer gives each sender. */
export interface SendingContext {
  /** Accepted messages, for their delivery status. */
  readonly deliveries?: Pick<DeliveryStore, 'recordAccepted'>;
  /** Waits for the channel's pacer. */
  readonly pace: (channel: OtpChannel) => Promise<void>;
  readonly clock: () => Date;
  /** Best effort after a send the provider accepted: a failure must not make the message retry (and send again). */
  readonly afterAccepted: (
    what: string,
    fields: Record<string, unknown>,
    write: () => Promise<unknown>,
  ) => Promise<void>;
}

/** The channels a message tries, in order (as decisionChannels does for a decision). */
export function templateChannels(settings: TemplateSettings, sms: keyof SmsTemplates): OtpChannel[] {
  const whatsapp = settings.channels !== 'sms' && settings.whatsappTemplate !== undefined;
  const bySms = settings.smsTemplates?.[sms] !== undefined && (settings.channels !== 'whatsapp' || !whatsapp);
  return [...(whatsapp ? (['whatsapp'] as const) : []), ...(bySms ? (['sms'] as const) : [])];
}

/**
 * By the channels in order: the next only when the one before refused for a reason other
 * than its rate (`onFallback` says so). The plan must not be empty.
 */
export async function sendByChannels(
  plan: readonly OtpChannel[],
  sendBy: (channel: OtpChannel) => Promise<string>,
  onFallback: (error: unknown) => void,
): Promise<{ channel: OtpChannel; messageId: string }> {
  for (const [i, channel] of plan.entries()) {
    try {
      return { channel, messageId: await sendBy(channel) };
    } catch (error) {
      if (i === plan.length - 1 || isRateLimited(error)) throw error;
      onFallback(error);
    }
  }
  throw new Error('No channel to send by');
}
