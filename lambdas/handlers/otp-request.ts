import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { otpRequestSchema, type OtpRequestResponse } from '../../rules/application';
import { maskPhone, toStoredPhone } from '../../rules/phone';
import { makeApplicationRepository, type ApplicationRepository } from '../adapters/applications';
import { type CaptchaVerifier, makeRecaptchaVerifier } from '../adapters/captcha';
import { makeOtpStore, type OtpStore } from '../adapters/otp-store';
import { type Limit, makeRateLimiter, type RateLimiter } from '../adapters/rate-limiter';
import type { MessageGateway } from '../adapters/whatsapp';
import { systemClock } from '../lib/clock';
import { generateOtp, hashOtp } from '../lib/codes';
import { tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count, countBy } from '../lib/metrics';
import { ipKey, otpSendError, publicFlowRuntime } from '../lib/public-flow';

export interface OtpRequestDeps {
  readonly captcha: CaptchaVerifier;
  readonly applications: Pick<ApplicationRepository, 'isRegistered'>;
  readonly limiter: RateLimiter;
  readonly otps: OtpStore;
  readonly gateway: () => Promise<MessageGateway>;
  readonly hashKey: () => Promise<string>;
  readonly clock: () => Date;
  readonly settings: {
    readonly ttlSeconds: number;
    readonly resendSeconds: number;
    readonly maxPerHour: number;
    readonly maxPerDay: number;
    readonly maxPerIpPerHour: number;
  };
}

/**
 * Sends a WhatsApp code: captcha, then the already-registered check, then the rate
 * limits, then a fresh code (replacing any older one) sent synchronously so that the
 * visitor sees a failure at once. The code never leaves in the response.
 */
export function makeHandler(deps: OtpRequestDeps) {
  const { settings } = deps;
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { mobile, captchaToken } = parseBody(event, otpRequestSchema);
    const phone = toStoredPhone(mobile);
    const sourceIp = event.requestContext.http.sourceIp;

    if (!(await deps.captcha.verify(captchaToken, sourceIp))) {
      logger.info('Captcha refused', { phone: maskPhone(phone) });
      count('CaptchaRejected');
      throw new AppError('CAPTCHA_FAILED');
    }
    if (await deps.applications.isRegistered(phone)) throw new AppError('ALREADY_REGISTERED');

    const now = deps.clock();
    const limits: Limit[] = [
      { kind: 'cooldown', key: `otp#${phone}`, seconds: settings.resendSeconds },
      { kind: 'window', key: `otp-hour#${phone}`, seconds: 3600, max: settings.maxPerHour },
      { kind: 'window', key: `otp-day#${phone}`, seconds: 86_400, max: settings.maxPerDay },
      { kind: 'window', key: `otp-ip#${ipKey(sourceIp)}`, seconds: 3600, max: settings.maxPerIpPerHour },
    ];
    const limited = await deps.limiter.hit(limits, now);
    if (!limited.allowed) {
      logger.info('OTP send rate-limited', { phone: maskPhone(phone), limit: limited.key.split('#')[0] });
      count('RateLimited');
      throw new AppError('RATE_LIMITED', { retryAfterSeconds: limited.retryAfterSeconds });
    }

    const code = generateOtp();
    try {
      await deps.otps.save(phone, hashOtp(await deps.hashKey(), phone, code), now, settings.ttlSeconds);
    } catch (error) {
      logger.error('OTP store failed', { phone: maskPhone(phone), errorName: (error as Error).name });
      throw new AppError('OTP_STORE_FAILED');
    }

    try {
      await (await deps.gateway()).sendOtp(phone, code);
    } catch (error) {
      const appError = otpSendError(error);
      logger.warn('OTP send failed', { phone: maskPhone(phone), errorCode: appError.code, providerCode: appError.details.providerCode });
      countBy('OtpSendFailed', 'reason', String(appError.details.providerCode ?? appError.code));
      throw appError;
    }
    logger.info('OTP sent', { phone: maskPhone(phone) });
    count('OtpSent');
    const body: OtpRequestResponse = {
      sentTo: mobile,
      expiresInSeconds: settings.ttlSeconds,
      resendAfterSeconds: settings.resendSeconds,
    };
    return json(200, body);
  });
}

const runtime = publicFlowRuntime();
const { env, db } = runtime;
export const handler = makeHandler({
  captcha: makeRecaptchaVerifier({
    verifyUrl: env.CAPTCHA_VERIFY_URL,
    secret: async () => (await runtime.secrets()).recaptchaSecret,
    action: 'send_otp',
    minScore: env.CAPTCHA_MIN_SCORE,
    hostnames: env.CAPTCHA_HOSTNAMES.split(',').map((h) => h.trim()).filter(Boolean),
  }),
  applications: makeApplicationRepository(db, tableName('applications')),
  limiter: makeRateLimiter(db, tableName('rateLimits')),
  otps: makeOtpStore(db, tableName('otps')),
  gateway: runtime.gateway,
  hashKey: async () => (await runtime.secrets()).otpHashKey,
  clock: systemClock(),
  settings: {
    ttlSeconds: env.OTP_TTL_SECONDS,
    resendSeconds: env.OTP_RESEND_SECONDS,
    maxPerHour: env.OTP_MAX_PER_HOUR,
    maxPerDay: env.OTP_MAX_PER_DAY,
    maxPerIpPerHour: env.OTP_MAX_PER_IP_PER_HOUR,
  },
});
