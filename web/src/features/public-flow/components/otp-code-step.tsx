import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestOtp } from '../api/request-otp';
import { verifyOtp } from '../api/verify-otp';
import { useCaptcha } from '../hooks/use-captcha';
import { digitsOnly } from '../utils/application-form-values';
import type { Verification } from '../utils/flow-storage';
import { type Failure, FailureMessage, failureOf } from './failure-message';

interface OtpCodeStepProps {
  readonly mobile: string;
  readonly sentTo: string;
  readonly resendAt: number;
  /** Focus the code field on mount (after the code was just sent, not after a reload). */
  readonly autoFocus: boolean;
  readonly onVerified: (verification: Verification) => void;
  readonly onResent: (resendAt: number) => void;
  readonly onChangeNumber: () => void;
}

/** Step 1, once the code is sent: the 6-digit code, verify, resend, change the number. */
export function OtpCodeStep({
  mobile,
  sentTo,
  resendAt,
  autoFocus,
  onVerified,
  onResent,
  onChangeNumber,
}: OtpCodeStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'verifying' | 'resending' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const captcha = useCaptcha();

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const inputId = `${id}-code`;
  const headingId = `${id}-heading`;
  const complete = code.length === 6;

  const verify = async () => {
    setBusy('verifying');
    setFailure(null);
    try {
      const verification = await verifyOtp({ mobile, code });
      onVerified({ token: verification.verificationToken, expiresAt: verification.expiresAt, mobile });
    } catch (error) {
      // A wrong (or spent) code is cleared so that the next one can be typed at once.
      setCode('');
      setFailure(failureOf(error));
      setBusy(null);
      inputRef.current?.focus();
    }
  };

  const resend = async () => {
    setBusy('resending');
    setFailure(null);
    try {
      const captchaToken = await captcha.token().catch(() => {
        throw new CaptchaFailure();
      });
      const sent = await requestOtp({ mobile, captchaToken });
      setCode('');
      onResent(Date.now() + sent.resendAfterSeconds * 1000);
      inputRef.current?.focus();
    } catch (error) {
      const next = error instanceof CaptchaFailure ? { code: 'CAPTCHA_FAILED' } : failureOf(error);
      setFailure(next);
      if (next.code === 'RATE_LIMITED' && next.retryAfterSeconds) onResent(Date.now() + next.retryAfterSeconds * 1000);
    } finally {
      setBusy((current) => (current === 'resending' ? null : current));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || busy) return;
    void verify();
  };

  return (
    <form className="step" aria-labelledby={headingId} noValidate onSubmit={onSubmit}>
      <h2 id={headingId} className="step-heading">
        {t('step1.heading')}
      </h2>
      <p className="alert alert-success" role="status">
        {t('step1.otpSentTo')} <span className="nowrap">+91 {sentTo}</span>
      </p>
      <div className="field">
        <label htmlFor={inputId} className="field-label">
          {t('step1.otpLabel')}
        </label>
        <p id={`${inputId}-hint`} className="field-hint">
          {t('step1.otpHint')}
        </p>
        <input
          ref={inputRef}
          id={inputId}
          name="otp"
          className="input input-code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          required
          value={code}
          aria-invalid={failure?.code.startsWith('OTP_') ?? false}
          aria-describedby={failure ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
          onChange={(event) => setCode(digitsOnly(event.target.value, 6))}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={!complete || busy !== null}>
        {busy === 'verifying' ? t('step1.verifying') : t('step1.verify')}
      </button>
      <div className="step-messages">{failure && <FailureMessage id={`${inputId}-error`} failure={failure} />}</div>
      <div className="step-links">
        <ResendButton
          key={resendAt}
          resendAt={resendAt}
          busy={busy === 'resending'}
          disabled={busy !== null || captcha.state !== 'ready'}
          onResend={() => void resend()}
        />
        <button type="button" className="button button-link" disabled={busy === 'verifying'} onClick={onChangeNumber}>
          {t('step1.changeNumber')}
        </button>
      </div>
    </form>
  );
}

class CaptchaFailure extends Error {}

function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** "Resend OTP in 0:42", enabled once the server's cool-down is over. */
function ResendButton(props: { resendAt: number; busy: boolean; disabled: boolean; onResend: () => void }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((props.resendAt - now) / 1000));

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [remaining]);

  const waiting = remaining > 0;
  return (
    <button
      type="button"
      className="button button-link"
      disabled={waiting || props.disabled}
      onClick={props.onResend}
      data-testid="resend-otp"
    >
      {props.busy
        ? t('step1.sending')
        : waiting
          ? t('step1.resendIn', { time: formatCountdown(remaining) })
          : t('step1.resend')}
    </button>
  );
}
