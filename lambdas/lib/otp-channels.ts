import { maskPhone } from '../../rules/phone';
import type { OtpChannel } from '../../rules/api';
import { type SmsGateway, SmsError } from '../adapters/sms';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import { type MessageGateway, WhatsAppError, whatsAppRefusal } from '../adapters/whatsapp';
import type { OtpChannelMode, SmsTemplates } from './env';
import { AppError } from './http';
import { logger } from './logger';
import { count, countBy } from './metrics';
import { providerFailureFields } from './provider-failure';
import type { CallOptions } from './time-budget';

// Which channel carries a code, and the fallback: a stage uses WhatsApp, SMS, or
// WhatsApp first with SMS when WhatsApp will not take the message now. The visitor
// always learns where the code went.

interface OtpSent {
  readonly channel: OtpChannel;
  readonly messageId: string;
  /** WhatsApp refused (or its tier was full) and the code went by SMS. */
  readonly fellBack: boolean;
}

export interface OtpChannelsDeps {
  readonly mode: OtpChannelMode;
  readonly whatsapp: () => Promise<Pick<MessageGateway, 'sendOtp'>>;
  readonly sms: () => Promise<SmsGateway>;
  readonly smsTemplates: SmsTemplates | undefined;
  readonly recipients: WhatsAppRecipients;
  /** Unique WhatsApp recipients allowed in 24 hours; 0: unlimited. */
  readonly tierLimit: number;
}

export interface OtpChannels {
  readonly hasSms: boolean;
  send(phone: string, code: string, options: OtpSendOptions): Promise<OtpSent>;
}

export interface OtpSendOptions {
  readonly language: 'en' | 'ta';
  readonly smsOnly?: boolean;
  readonly now: Date;
  /**
   * Epoch milliseconds by which every provider call must be done (lambdas/lib/time-budget.ts).
   * WhatsApp gets at most half of what is left when SMS could follow; SMS gets the rest.
   */
  readonly deadline?: number;
}

/** WhatsApp failed, or has not reported the code delivered (or read) within the offer time. */
export function smsOfferOpen(
  status: string | undefined,
  issuedAt: number,
  now: Date,
  offerAfterSeconds: number,
): boolean {
  if (status === 'failed') return true;
  if (status === 'delivered' || status === 'read') return false;
  return now.getTime() >= (issuedAt + offerAfterSeconds) * 1000;
}

/**
 * Provider failures with no channel left, as the visitor's translated messages. Neither
 * the provider's text nor its code reaches the browser: both go to the log line and the
 * metric of the refusal.
 */
function whatsAppSendError(error: unknown, smsAvailable: boolean): AppError {
  const extra = smsAvailable ? { smsAvailable } : {};
  if (!(error instanceof WhatsAppError)) return new AppError('WHATSAPP_SEND_FAILED', extra);
  switch (error.failure) {
    case 'not-configured':
      return new AppError('WHATSAPP_NOT_CONFIGURED', extra);
    case 'invalid-phone-number-id':
      return new AppError('WHATSAPP_INVALID_PHONE_NUMBER_ID', extra);
    case 'network':
      return new AppError('NETWORK_ERROR', extra);
    case 'provider':
      break;
  }
  const refusal = whatsAppRefusal(error);
  if (refusal === 'undeliverable') return new AppError('WHATSAPP_UNDELIVERABLE', extra);
  if (refusal === 'rate-limit') return new AppError('WHATSAPP_BUSY', extra);
  return new AppError('WHATSAPP_SEND_FAILED', extra);
}

function smsSendError(error: unknown): AppError {
  if (!(error instanceof SmsError)) return new AppError('SMS_SEND_FAILED');
  switch (error.failure) {
    case 'not-configured':
      return new AppError('SMS_NOT_CONFIGURED');
    case 'throttled':
      return new AppError('SERVICE_BUSY', { retryAfterSeconds: 2 });
    case 'network':
      return new AppError('NETWORK_ERROR');
    default:
      return new AppError('SMS_SEND_FAILED');
  }
}

export function makeOtpChannels(deps: OtpChannelsDeps): OtpChannels {
  const hasSms = deps.mode !== 'whatsapp' && deps.smsTemplates !== undefined;
  const hasWhatsApp = deps.mode !== 'sms';

  const left = (deadline: number | undefined, share = 1): CallOptions =>
    deadline === undefined ? {} : { timeoutMs: Math.floor((deadline - Date.now()) * share) };

  const bySms = async (
    phone: string,
    code: string,
    { language, deadline }: OtpSendOptions,
    fellBack: boolean,
  ): Promise<OtpSent> => {
    const templates = deps.smsTemplates?.otp;
    if (!templates) throw new AppError('SMS_NOT_CONFIGURED');
    const template = (language === 'ta' && templates.ta) || templates.en;
    try {
      const messageId = await (await deps.sms()).send(phone, template, [code], left(deadline));
      countBy('MessageAccepted', 'channel', 'sms');
      return { channel: 'sms', messageId, fellBack };
    } catch (error) {
      const appError = smsSendError(error);
      logger.warn('OTP SMS send failed', {
        phone: maskPhone(phone),
        errorCode: appError.code,
        ...providerFailureFields(error),
      });
      countBy(
        'OtpSendFailed',
        'reason',
        `sms:${error instanceof SmsError ? (error.providerCode ?? error.failure) : 'unknown'}`,
      );
      throw appError;
    }
  };

  /** The tier is full and this number would be a new recipient: WhatsApp would refuse it. */
  const tierFull = async (phone: string, now: Date): Promise<boolean> => {
    if (deps.tierLimit <= 0) return false;
    try {
      if ((await deps.recipients.count(now)) < deps.tierLimit) return false;
      return !(await deps.recipients.isRecent(phone, now));
    } catch (error) {
      // The count is a guard: without it, WhatsApp's own refusal still falls back.
      logger.warn('WhatsApp recipient count unavailable', providerFailureFields(error));
      return false;
    }
  };

  return {
    hasSms,
    async send(phone, code, options) {
      const { smsOnly = false, now, deadline } = options;
      if (smsOnly || !hasWhatsApp) return bySms(phone, code, options, false);
      if (hasSms && (await tierFull(phone, now))) {
        countBy('OtpFellBackToSms', 'reason', 'tier-full');
        logger.info('WhatsApp tier full: code by SMS', { phone: maskPhone(phone) });
        return bySms(phone, code, options, true);
      }
      try {
        const messageId = await (await deps.whatsapp()).sendOtp(phone, code, left(deadline, hasSms ? 0.5 : 1));
        countBy('MessageAccepted', 'channel', 'whatsapp');
        try {
          // The tier alarm reads this gauge's maximum against the stage's messaging tier.
          count('WhatsAppUniqueRecipients24h', await deps.recipients.record(phone, now));
        } catch (error) {
          logger.warn('WhatsApp recipient not counted', providerFailureFields(error));
        }
        return { channel: 'whatsapp', messageId, fellBack: false };
      } catch (error) {
        const providerCode = error instanceof WhatsAppError ? error.provider.code : undefined;
        countBy(
          'OtpSendFailed',
          'reason',
          String(providerCode ?? (error instanceof WhatsAppError ? error.failure : 'unknown')),
        );
        if (!hasSms) {
          const appError = whatsAppSendError(error, false);
          logger.warn('OTP send failed', {
            phone: maskPhone(phone),
            errorCode: appError.code,
            ...providerFailureFields(error),
          });
          throw appError;
        }
        // Whatever WhatsApp's reason (no WhatsApp on the number, throughput, tier or pair
        // limits, a blocked account, a timeout), the visitor needs the code now.
        const reason = whatsAppRefusal(error);
        countBy('OtpFellBackToSms', 'reason', reason);
        logger.info('WhatsApp refused the code: sending by SMS', {
          phone: maskPhone(phone),
          reason,
          ...providerFailureFields(error),
        });
        return bySms(phone, code, options, true);
      }
    },
  };
}
