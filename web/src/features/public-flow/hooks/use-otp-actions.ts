import { type RefObject, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { requestOtp } from '../api/request-otp';
import { verifyOtp } from '../api/verify-otp';
import { type Failure, failureOf } from '../components/failure-message';
import { isVoidReason, type OtpSnapshot, otpSnapshotOf, type Verification } from '../utils/flow-storage';
import type { useCaptcha } from './use-captcha';

class CaptchaFailure extends Error {}

/**
 * The code step's two actions and what they leave on screen: verify the typed code, and
 * send a new one (Resend, or by SMS instead with the WhatsApp send's handle).
 */
export function useOtpActions({
  mobile,
  otp,
  code,
  setCode,
  inputRef,
  captcha,
  onVerified,
  onRegistered,
  onResent,
}: {
  mobile: string;
  otp: OtpSnapshot;
  code: string;
  setCode: (code: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  captcha: ReturnType<typeof useCaptcha>;
  onVerified: (verification: Verification) => void;
  /** With the number's verification when the server sent it (for "Get my card"). */
  onRegistered: (verification?: Verification) => void;
  onResent: (otp: OtpSnapshot) => void;
}) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const { channel } = otp;
  const [busy, setBusy] = useState<'verifying' | 'resending' | 'switching' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The service is busy and a send is being tried again.
  const [retrying, setRetrying] = useState(false);
  // The server refused the switch for this handle: the offer goes.
  const [refusedHandle, setRefusedHandle] = useState<string | undefined>();

  const verify = async () => {
    setBusy('verifying');
    setFailure(null);
    try {
      // The send's handle: only with it does the server say how many guesses are left.
      const verification = await verifyOtp({ mobile, code, ...(otp.handle && { handle: otp.handle }) });
      onVerified({ token: verification.verificationToken, expiresAt: verification.expiresAt, mobile, channel });
    } catch (error) {
      // A wrong (or spent) code is cleared so that the next one can be typed at once.
      setCode('');
      const next = failureOf(error);
      setBusy(null);
      if (next.code === 'ALREADY_REGISTERED') {
        const { verificationToken: token, expiresAt } = error instanceof ApiError ? error.details : {};
        onRegistered(token && expiresAt ? { token, expiresAt, mobile, channel } : undefined);
        return;
      }
      if (isVoidReason(next.code)) {
        // Said at once, and kept across a reload: no guess can help; a new code can, once the wait allows.
        setFailure(null);
        const wait = next.retryAfterSeconds ? Date.now() + next.retryAfterSeconds * 1000 : 0;
        onResent({ ...otp, voided: next.code, resendAt: Math.max(otp.resendAt, wait) });
        return;
      }
      setFailure(next);
      inputRef.current?.focus();
    }
  };

  /** Resend, or (with the WhatsApp send's handle) ask for the code by SMS instead: a fresh captcha token either way. */
  const send = async (kind: 'resending' | 'switching') => {
    setBusy(kind);
    setFailure(null);
    const switchToSms = kind === 'switching' ? otp.handle : undefined;
    try {
      const captchaToken = await captcha.token().catch(() => {
        throw new CaptchaFailure();
      });
      const sent = await requestOtp(
        { mobile, captchaToken, language, ...(switchToSms && { switchToSms }) },
        { onRetry: () => setRetrying(true) },
      );
      setCode('');
      onResent(otpSnapshotOf(sent, Date.now(), switchToSms !== undefined));
      inputRef.current?.focus();
    } catch (error) {
      const next = error instanceof CaptchaFailure ? { code: 'CAPTCHA_FAILED' } : failureOf(error);
      setFailure(next);
      if (next.code === 'RATE_LIMITED' && next.retryAfterSeconds) {
        onResent({ ...otp, resendAt: Date.now() + next.retryAfterSeconds * 1000 });
      }
      if (switchToSms && (next.code === 'SMS_SWITCH_NOT_ALLOWED' || next.code === 'DELIVERY_HANDLE_INVALID')) {
        setRefusedHandle(switchToSms);
      }
    } finally {
      setRetrying(false);
      setBusy((current) => (current === kind ? null : current));
    }
  };

  return { busy, failure, retrying, refusedHandle, verify, send };
}
