import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { otpVerifyRequestSchema, type OtpVerifyResponse } from '../../rules/application';
import { maskPhone, toStoredPhone } from '../../rules/phone';
import { makeOtpStore, type OtpRecord, type OtpStore } from '../adapters/otp-store';
import { systemClock } from '../lib/clock';
import { hashOtp, sameHash, signVerification } from '../lib/codes';
import { tableName } from '../lib/env';
import { AppError, httpHandler, json, parseBody } from '../lib/http';
import { logger } from '../lib/logger';
import { count } from '../lib/metrics';
import { publicFlowRuntime } from '../lib/public-flow';

export interface OtpVerifyDeps {
  readonly otps: OtpStore;
  readonly keys: () => Promise<{ otpHashKey: string; verificationSigningKey: string }>;
  readonly clock: () => Date;
  readonly settings: {
    readonly maxAttempts: number;
    readonly verificationTtlSeconds: number;
    /** The wait between two sends (the request's cool-down): when a void code may be replaced. */
    readonly resendSeconds: number;
  };
}

/**
 * Checks a code. Each guess is counted before it is compared, so after the allowed
 * number of wrong guesses the code is void even for the right digits. The last allowed
 * wrong guess already answers OTP_TOO_MANY_ATTEMPTS (not "try again"), and so does every
 * guess after it until a new code replaces the void one; each says when a new code may be
 * sent. A right code is used up and exchanged for a short-lived signed verification bound
 * to the number.
 */
export function makeHandler(deps: OtpVerifyDeps) {
  const { maxAttempts, verificationTtlSeconds, resendSeconds } = deps.settings;
  /** Seconds until the send's cool-down is over, when there are any left. */
  const resendWait = (record: OtpRecord, now: Date) => {
    const seconds = Math.ceil((Date.parse(record.created_at) + resendSeconds * 1000 - now.getTime()) / 1000);
    return seconds > 0 ? { retryAfterSeconds: seconds } : {};
  };
  return httpHandler<APIGatewayProxyEventV2>(async (event) => {
    const { mobile, code } = parseBody(event, otpVerifyRequestSchema);
    const phone = toStoredPhone(mobile);
    const now = deps.clock();

    const attempt = await deps.otps.takeAttempt(phone, maxAttempts);
    if (attempt.kind === 'not-found') throw new AppError('OTP_NOT_FOUND');
    const { record } = attempt;
    if (record.expires_at <= now.getTime()) {
      count('OtpRejected');
      await deps.otps.remove(phone, record.code_hash);
      throw new AppError('OTP_EXPIRED');
    }
    if (attempt.kind === 'exhausted') {
      // Kept (void) until a new code replaces it or it expires: every later guess hears the same.
      count('OtpRejected');
      throw new AppError('OTP_TOO_MANY_ATTEMPTS', { attemptsLeft: 0, ...resendWait(record, now) });
    }

    const keys = await deps.keys();
    if (!sameHash(hashOtp(keys.otpHashKey, phone, code), record.code_hash)) {
      const attemptsLeft = Math.max(0, maxAttempts - record.attempts);
      logger.info('OTP mismatch', { phone: maskPhone(phone), attemptsLeft });
      count('OtpRejected');
      if (attemptsLeft === 0) {
        logger.info('OTP void after too many attempts', { phone: maskPhone(phone) });
        throw new AppError('OTP_TOO_MANY_ATTEMPTS', { attemptsLeft: 0, ...resendWait(record, now) });
      }
      throw new AppError('OTP_INVALID', { attemptsLeft });
    }

    await deps.otps.remove(phone, record.code_hash);
    const { token, expiresAt } = await signVerification(keys.verificationSigningKey, phone, now, verificationTtlSeconds, randomUUID());
    logger.info('OTP verified', { phone: maskPhone(phone) });
    count('OtpVerified');
    const body: OtpVerifyResponse = { verificationToken: token, expiresAt: expiresAt.toISOString() };
    return json(200, body);
  });
}

const runtime = publicFlowRuntime();
export const handler = makeHandler({
  otps: makeOtpStore(runtime.db, tableName('otps')),
  keys: runtime.secrets,
  clock: systemClock(),
  settings: {
    maxAttempts: runtime.env.OTP_MAX_ATTEMPTS,
    verificationTtlSeconds: runtime.env.VERIFICATION_TTL_SECONDS,
    resendSeconds: runtime.env.OTP_RESEND_SECONDS,
  },
});
