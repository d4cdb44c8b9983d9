import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { otpVerifyRequestSchema, type OtpVerifyResponse } from '../../rules/application';
import { maskPhone, toStoredPhone } from '../../rules/phone';
import { type ApplicationRepository, makeApplicationRepository } from '../adapters/applications';
import { makeOtpStore, type OtpRecord, type OtpStore } from '../adapters/otp-store';
import { makeRateLimiter, type RateLimiter } from '../adapters/rate-limiter';
import { systemClock } from '../lib/clock';
import { hashOtp, readDeliveryHandle, sameHash, signVerification } from '../lib/codes';
import { tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count } from '../lib/metrics';
import { ipKey, publicFlowRuntime } from '../lib/public-flow';
import { viewerAddress } from '../lib/viewer-address';
import { wiredOnFirstCall } from '../lib/wiring';

export interface OtpVerifyDeps {
  readonly otps: OtpStore;
  readonly applications: Pick<ApplicationRepository, 'isRegistered'>;
  readonly limiter: RateLimiter;
  readonly keys: () => Promise<{ otpHashKey: string; verificationSigningKey: string }>;
  readonly clock: () => Date;
  readonly mode: 'aws' | 'local';
  readonly settings: {
    readonly maxAttempts: number;
    readonly verificationTtlSeconds: number;
    /** The wait between two sends (the request's cool-down): when a void code may be replaced. */
    readonly resendSeconds: number;
    readonly maxPerHour: number;
    readonly maxPerIpPerHour: number;
  };
}

/**
 * Checks a code. Each check counts against the number's and the address's limits, and
 * each guess against the code before it is compared, so after the allowed number of wrong
 * guesses the code is void even for the right digits.
 *
 * Only the holder of the send's handle (the page that asked for this code) hears about
 * the code: guesses left, void (OTP_TOO_MANY_ATTEMPTS, with when a new code may be sent),
 * expired. Anyone else hears OTP_INVALID alone, whether a code is pending or not: a
 * stranger cannot learn that somebody is applying with a number right now.
 *
 * A right code is spent by a conditional delete, and only the one check whose delete
 * took it goes on: ten at once give one answer. A number that has applied then hears
 * ALREADY_REGISTERED (with the verification, for "Get my card"); any other gets a short-lived
 * signed verification bound to the number.
 */
export function makeHandler(deps: OtpVerifyDeps) {
  const { maxAttempts, verificationTtlSeconds, resendSeconds } = deps.settings;
  /** Seconds until the send's cool-down is over, when there are any left. */
  const resendWait = (record: OtpRecord, now: Date) => {
    const seconds = Math.ceil((Date.parse(record.created_at) + resendSeconds * 1000 - now.getTime()) / 1000);
    return seconds > 0 ? { retryAfterSeconds: seconds } : {};
  };
  /** What someone without the code's handle hears about it, whatever the reason. */
  const refused = () => new AppError('OTP_INVALID');
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { mobile, code, handle } = parseBody(event, otpVerifyRequestSchema);
    const phone = toStoredPhone(mobile);
    const now = deps.clock();
    const keys = await deps.keys();
    const viewer = viewerAddress(event, { mode: deps.mode });

    const limited = await deps.limiter.hit(
      [
        { kind: 'window', key: `verify#${phone}`, seconds: 3600, max: deps.settings.maxPerHour },
        {
          kind: 'window',
          key: `verify-ip#${ipKey(keys.otpHashKey, viewer)}`,
          seconds: 3600,
          max: deps.settings.maxPerIpPerHour,
        },
      ],
      now,
    );
    if (!limited.allowed) {
      logger.info('OTP check rate-limited', { phone: maskPhone(phone), limit: limited.key.split('#')[0] });
      count('RateLimited');
      throw new AppError('RATE_LIMITED', { retryAfterSeconds: limited.retryAfterSeconds });
    }

    const own = handle === undefined ? undefined : readDeliveryHandle(keys.verificationSigningKey, phone, handle, now);
    /** The caller asked for this very code (holds its send's handle). */
    const mine = (record: OtpRecord) => own !== undefined && record.request_id === own.requestId;

    const attempt = await deps.otps.takeAttempt(phone, maxAttempts);
    if (attempt.kind === 'not-found') {
      count('OtpRejected');
      throw refused();
    }
    const { record } = attempt;
    if (record.expires_at <= now.getTime()) {
      count('OtpRejected');
      await deps.otps.remove(phone, record.code_hash);
      throw mine(record) ? new AppError('OTP_EXPIRED') : refused();
    }
    if (attempt.kind === 'exhausted') {
      // Kept (void) until a new code replaces it or it expires: every later guess hears the same.
      count('OtpRejected');
      throw mine(record)
        ? new AppError('OTP_TOO_MANY_ATTEMPTS', { attemptsLeft: 0, ...resendWait(record, now) })
        : refused();
    }

    if (!sameHash(hashOtp(keys.otpHashKey, phone, code), record.code_hash)) {
      const attemptsLeft = Math.max(0, maxAttempts - record.attempts);
      logger.info('OTP mismatch', { phone: maskPhone(phone), attemptsLeft });
      count('OtpRejected');
      if (!mine(record)) throw refused();
      if (attemptsLeft === 0) {
        logger.info('OTP void after too many attempts', { phone: maskPhone(phone) });
        throw new AppError('OTP_TOO_MANY_ATTEMPTS', { attemptsLeft: 0, ...resendWait(record, now) });
      }
      throw new AppError('OTP_INVALID', { attemptsLeft });
    }

    // Several checks of the right code at once all get here; the delete lets one through.
    if (!(await deps.otps.remove(phone, record.code_hash))) {
      count('OtpRejected');
      throw refused();
    }
    count('OtpVerified');
    const { token, expiresAt } = await signVerification(
      keys.verificationSigningKey,
      phone,
      now,
      verificationTtlSeconds,
      randomUUID(),
    );
    if (await deps.applications.isRegistered(phone)) {
      logger.info('OTP verified for a registered number', { phone: maskPhone(phone) });
      // The verification goes with the refusal: "Get my card" needs the number proved; a
      // submit with it is refused as already registered all the same.
      throw new AppError('ALREADY_REGISTERED', { verificationToken: token, expiresAt: expiresAt.toISOString() });
    }
    logger.info('OTP verified', { phone: maskPhone(phone) });
    const body: OtpVerifyResponse = { verificationToken: token, expiresAt: expiresAt.toISOString() };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const runtime = publicFlowRuntime();
  const { env, db } = runtime;
  return makeHandler({
    otps: makeOtpStore(db, tableName('otps')),
    applications: makeApplicationRepository(db, tableName('applications')),
    limiter: makeRateLimiter(db, tableName('rateLimits')),
    keys: runtime.keys,
    clock: systemClock(),
    mode: env.APP_MODE,
    settings: {
      maxAttempts: env.OTP_MAX_ATTEMPTS,
      verificationTtlSeconds: env.VERIFICATION_TTL_SECONDS,
      resendSeconds: env.OTP_RESEND_SECONDS,
      maxPerHour: env.OTP_VERIFY_MAX_PER_HOUR,
      maxPerIpPerHour: env.OTP_VERIFY_MAX_PER_IP_PER_HOUR,
    },
  });
});
