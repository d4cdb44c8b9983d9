import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { otpRequestSchema, type OtpRequestResponse } from '../../rules/application';
import { maskPhone, toStoredPhone } from '../../rules/phone';
import { type CaptchaVerifier, stageRecaptchaVerifier } from '../adapters/captcha';
import type { DeliveryStore } from '../adapters/deliveries';
import { makeOtpStore, type OtpStore } from '../adapters/otp-store';
import { type Limit, makeRateLimiter, type RateLimiter } from '../adapters/rate-limiter';
import { systemClock } from '../lib/clock';
import { generateOtp, hashOtp, readDeliveryHandle, signDeliveryHandle } from '../lib/codes';
import { tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count } from '../lib/metrics';
import { type OtpChannels, smsOfferOpen } from '../lib/otp-channels';
import { ipKey, publicFlowRuntime } from '../lib/public-flow';
import { type CallOptions, type RequestDeadline, requestDeadline } from '../lib/time-budget';
import { viewerAddress } from '../lib/viewer-address';
import { wiredOnFirstCall } from '../lib/wiring';

/** How long a delivery handle lives: past the code's own 5 minutes, for a late status. */
export const DELIVERY_HANDLE_SECONDS = 600;

/**
 * What the sends keep for themselves when there is room: the captcha check gets what is
 * left less this, but never less than half of what is left.
 */
export const SEND_RESERVE_MS = 3000;

export interface OtpRequestDeps {
  readonly captcha: CaptchaVerifier;
  readonly limiter: RateLimiter;
  readonly otps: OtpStore;
  readonly channels: () => OtpChannels;
  readonly deliveries: () => Pick<DeliveryStore, 'recordAccepted' | 'get'>;
  readonly keys: () => Promise<{ otpHashKey: string; verificationSigningKey: string }>;
  readonly clock: () => Date;
  readonly mode: 'aws' | 'local';
  readonly settings: {
    readonly ttlSeconds: number;
    readonly resendSeconds: number;
    readonly maxPerHour: number;
    readonly maxPerDay: number;
    readonly maxPerIpPerHour: number;
    readonly smsOfferAfterSeconds: number;
    /** The whole request's deadline from its start, below the function's timeout (REQUEST_DEADLINE_MS). */
    readonly deadlineMs: number;
  };
}

/**
 * Sends a code: captcha, then the rate limits (per number across channels, and per
 * viewer address), then a fresh code (replacing any older one) sent synchronously by the
 * stage's channels so that the visitor sees a failure at once. `switchToSms` resends as
 * SMS a WhatsApp code that failed or did not arrive. The code never leaves in the response.
 *
 * Whether the number has applied is not looked at: the answer is the same for every
 * valid number, so that nobody can learn from it who joined (otp-verify says "already
 * registered", after the right code).
 */
/** The captcha's share of the deadline: what is left less the sends' reserve, or half of it when that is more. */
const captchaCall = (deadline: RequestDeadline): CallOptions => {
  const left = deadline.left();
  return { timeoutMs: Math.max(1, Math.floor(Math.max(left - SEND_RESERVE_MS, left / 2))) };
};

export function makeHandler(deps: OtpRequestDeps) {
  const { settings } = deps;
  return httpHandler<APIGatewayProxyEventV2>(async (event, context) => {
    // One deadline for the whole request, set now: a cold start's secret reads, the captcha
    // and the sends all come out of it, and the function answers before Lambda stops it.
    const deadline = requestDeadline(context, settings.deadlineMs);
    const { mobile, captchaToken, language = 'en', switchToSms } = parseBody(event, otpRequestSchema);
    const phone = toStoredPhone(mobile);
    const keys = await deps.keys();
    const viewer = viewerAddress(event, { mode: deps.mode });

    if (!(await deps.captcha.verify(captchaToken, viewer, captchaCall(deadline)))) {
      logger.info('Captcha refused', { phone: maskPhone(phone) });
      count('CaptchaRejected');
      throw new AppError('CAPTCHA_FAILED');
    }
    const now = deps.clock();
    const channels = deps.channels();
    const cooldownKey = `otp#${phone}`;
    const limits: Limit[] = [
      // Any 60 minutes and any 24 hours, not clock hours: 5 before 10:00 and 5 after would be 10 in minutes.
      {
        kind: 'sliding',
        key: `otp-sends#${phone}`,
        windows: [
          { seconds: 3600, max: settings.maxPerHour },
          { seconds: 86_400, max: settings.maxPerDay },
        ],
      },
      { kind: 'window', key: `otp-ip#${ipKey(keys.otpHashKey, viewer)}`, seconds: 3600, max: settings.maxPerIpPerHour },
    ];
    if (switchToSms === undefined) {
      limits.unshift({ kind: 'cooldown', key: cooldownKey, seconds: settings.resendSeconds });
    } else {
      const replaced = await switchable(switchToSms);
      // Once per WhatsApp send: the handle cannot buy a stream of SMS.
      limits.unshift({ kind: 'cooldown', key: `otp-switch#${replaced}`, seconds: DELIVERY_HANDLE_SECONDS });
    }
    const limited = await deps.limiter.hit(limits, now);
    if (!limited.allowed) {
      logger.info('OTP send rate-limited', { phone: maskPhone(phone), limit: limited.key.split('#')[0] });
      count('RateLimited');
      throw new AppError('RATE_LIMITED', { retryAfterSeconds: limited.retryAfterSeconds });
    }

    if (deadline.left() <= 0) {
      // Too late to send: no code is stored that could not reach the visitor.
      logger.warn('OTP request out of time before the send', { leftMs: deadline.left() });
      if (switchToSms === undefined) await deps.limiter.releaseCooldown(cooldownKey, now).catch(() => undefined);
      throw new AppError('SERVICE_BUSY', { retryAfterSeconds: 2 });
    }
    const code = generateOtp();
    const requestId = randomUUID();
    try {
      await deps.otps.save(phone, hashOtp(keys.otpHashKey, phone, code), now, settings.ttlSeconds, requestId);
    } catch (error) {
      logger.error('OTP store failed', { phone: maskPhone(phone), errorName: (error as Error).name });
      throw new AppError('OTP_STORE_FAILED');
    }

    let sent;
    try {
      sent = await channels.send(phone, code, {
        language,
        smsOnly: switchToSms !== undefined,
        now,
        // WhatsApp, then SMS when it refuses, share what is left of the request's deadline.
        deadline: deadline.at,
      });
    } catch (error) {
      // Nothing reached the visitor: they may try again at once (the hour and day still count).
      if (switchToSms === undefined) {
        await deps.limiter.releaseCooldown(cooldownKey, now).catch(() => undefined);
      }
      throw error;
    }
    try {
      await deps
        .deliveries()
        .recordAccepted({ channel: sent.channel, messageId: sent.messageId }, { purpose: 'otp' }, now);
    } catch (error) {
      // The code went; only its status will be unknown to the page.
      logger.warn('Delivery record not written', { errorName: (error as Error).name });
    }
    logger.info('OTP sent', { phone: maskPhone(phone), channel: sent.channel, fellBack: sent.fellBack });
    count('OtpSent');

    const issuedAt = Math.floor(now.getTime() / 1000);
    const body: OtpRequestResponse = {
      sentTo: mobile,
      channel: sent.channel,
      fellBack: sent.fellBack,
      deliveryHandle: signDeliveryHandle(keys.verificationSigningKey, phone, {
        channel: sent.channel,
        messageId: sent.messageId,
        issuedAt,
        expiresAt: issuedAt + DELIVERY_HANDLE_SECONDS,
        requestId,
      }),
      expiresInSeconds: settings.ttlSeconds,
      resendAfterSeconds: settings.resendSeconds,
      smsOfferAfterSeconds: sent.channel === 'whatsapp' && channels.hasSms ? settings.smsOfferAfterSeconds : null,
    };
    return json(200, body);

    /** The WhatsApp message id a switch replaces, when the switch is allowed now. */
    async function switchable(handle: string): Promise<string> {
      const named = readDeliveryHandle(keys.verificationSigningKey, phone, handle, now);
      if (!named) throw new AppError('DELIVERY_HANDLE_INVALID');
      if (!channels.hasSms || named.channel !== 'whatsapp') throw new AppError('SMS_SWITCH_NOT_ALLOWED');
      const record = await deps.deliveries().get({ channel: 'whatsapp', messageId: named.messageId });
      if (!smsOfferOpen(record?.status, named.issuedAt, now, settings.smsOfferAfterSeconds)) {
        throw new AppError('SMS_SWITCH_NOT_ALLOWED');
      }
      return named.messageId;
    }
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  const { env, db } = runtime;
  return makeHandler({
    captcha: stageRecaptchaVerifier(env, async () => (await runtime.secrets.provider()).recaptchaSecret, 'send_otp'),
    limiter: makeRateLimiter(db, tableName('rateLimits')),
    otps: makeOtpStore(db, tableName('otps')),
    channels: runtime.otpChannels,
    deliveries: runtime.deliveries,
    keys: runtime.keys,
    clock: systemClock(),
    mode: env.APP_MODE,
    settings: {
      ttlSeconds: env.OTP_TTL_SECONDS,
      resendSeconds: env.OTP_RESEND_SECONDS,
      maxPerHour: env.OTP_MAX_PER_HOUR,
      maxPerDay: env.OTP_MAX_PER_DAY,
      maxPerIpPerHour: env.OTP_MAX_PER_IP_PER_HOUR,
      smsOfferAfterSeconds: env.OTP_SMS_OFFER_AFTER_SECONDS,
      deadlineMs: env.REQUEST_DEADLINE_MS,
    },
  });
});
