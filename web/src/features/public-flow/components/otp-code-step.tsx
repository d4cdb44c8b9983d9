import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestOtp } from '../api/request-otp';
import { verifyOtp } from '../api/verify-otp';
import { useCaptcha } from '../hooks/use-captcha';
import { useDeliveryStatus } from '../hooks/use-delivery-status';
import { digitsOnly } from '../utils/application-form-values';
import { isVoidReason, type OtpSnapshot, otpSnapshotOf, type Verification } from '../utils/flow-storage';
import { type Failure, FailureMessage, failureOf } from './failure-message';

interface OtpCodeStepProps {
  readonly mobile: string;
  /** Where and how the code went (kept in sessionStorage across a reload). */
  readonly otp: OtpSnapshot;
  /** Focus the code field on mount (after the code was just sent, not after a reload). */
  readonly autoFocus: boolean;
  readonly onVerified: (verification: Verification) => void;
  /** The right code, from a number that has applied already: no verification, the message instead of the form. */
  readonly onRegistered: () => void;
  /** A new code went (a resend, a switch to SMS), or the wait for one changed. */
  readonly onResent: (otp: OtpSnapshot) => void;
  readonly onChangeNumber: () => void;
  /** How often the delivery status is asked (tests shorten it). */
  readonly pollIntervalMs?: number;
}

/**
 * Step 1, once the code is sent: where it went (WhatsApp or SMS), whether it was delivered,
 * the 6-digit code, verify, resend, "Didn't get it? Send by SMS", change the number.
 */
export function OtpCodeStep({
  mobile,
  otp,
  autoFocus,
  onVerified,
  onRegistered,
  onResent,
  onChangeNumber,
  pollIntervalMs,
}: OtpCodeStepProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'verifying' | 'resending' | 'switching' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The service is busy and a send is being tried again.
  const [retrying, setRetrying] = useState(false);
  // The server refused the switch for this handle: the offer goes.
  const [refusedHandle, setRefusedHandle] = useState<string | undefined>();
  const captcha = useCaptcha();
  const delivery = useDeliveryStatus(mobile, otp, pollIntervalMs);
  const { sentTo, resendAt, channel } = otp;
  const number = `+91\u00a0${sentTo}`;
  const language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const inputId = `${id}-code`;
  const headingId = `${id}-heading`;
  const complete = code.length === 6;
  // Void (too many wrong guesses, expired): the box closes and Resend is the way on.
  const voided = otp.voided;

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
        onRegistered();
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

  const delivered = delivery.status === 'delivered' || delivery.status === 'read';
  const offerSms = channel === 'whatsapp' && delivery.smsOffer && !delivered && otp.handle !== refusedHandle;
  const whatsappFailed = channel === 'whatsapp' && delivery.status === 'failed';

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
      <div className="sent-info">
        <p className="alert alert-success" role="status" data-channel={channel}>
          {channel === 'whatsapp' ? (
            <>
              {t('step1.otpSentTo')} <span className="nowrap">+91 {sentTo}</span>
            </>
          ) : (
            t(otp.switched ? 'code.switched' : otp.fellBack ? 'code.fellBack' : 'code.smsSentTo', { number })
          )}
        </p>
        <p className="delivery-state" role="status" data-testid="delivery-state">
          {delivered && (
            <>
              <span aria-hidden="true">✓ </span>
              {t('code.delivered')}
            </>
          )}
        </p>
      </div>
      {whatsappFailed && !offerSms && <p className="alert alert-error">{t('code.whatsappFailedNoSms')}</p>}
      {offerSms && (
        <div className="sms-offer" data-testid="sms-offer">
          <p className="sms-offer-text">{whatsappFailed ? t('code.whatsappFailed') : t('code.notReceived')}</p>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy !== null || captcha.state !== 'ready'}
            onClick={() => void send('switching')}
          >
            {busy === 'switching' ? t('code.sendingBySms') : t('code.sendBySms')}
          </button>
        </div>
      )}
      <div className="field">
        <label htmlFor={inputId} className="field-label">
          {t('step1.otpLabel')}
        </label>
        <p id={`${inputId}-hint`} className="field-hint">
          {channel === 'whatsapp' ? t('step1.otpHint') : t('code.smsHint')}
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
          disabled={voided !== undefined}
          aria-invalid={(voided !== undefined || failure?.code.startsWith('OTP_')) ?? false}
          aria-describedby={failure || voided ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
          onChange={(event) => setCode(digitsOnly(event.target.value, 6))}
        />
      </div>
      <button
        type="submit"
        className="button button-primary"
        disabled={!complete || busy !== null || voided !== undefined}
      >
        {busy === 'verifying' ? t('step1.verifying') : channel === 'whatsapp' ? t('step1.verify') : t('code.verify')}
      </button>
      <div className="step-messages">
        {retrying && (
          <p className="field-hint busy-notice" role="status">
            {t('errors.SERVICE_BUSY')}
          </p>
        )}
        {failure ? (
          <FailureMessage id={`${inputId}-error`} failure={failure} />
        ) : (
          voided && <VoidMessage id={`${inputId}-error`} reason={voided} />
        )}
      </div>
      <div className="step-links">
        <ResendButton
          key={resendAt}
          resendAt={resendAt}
          prominent={voided !== undefined}
          busy={busy === 'resending'}
          disabled={busy !== null || captcha.state !== 'ready'}
          onResend={() => void send('resending')}
        />
        <button type="button" className="button button-link" disabled={busy === 'verifying'} onClick={onChangeNumber}>
          {t('step1.changeNumber')}
        </button>
      </div>
    </form>
  );
}

class CaptchaFailure extends Error {}

/** The code cannot work any more: why, and that a new one is the way on (the Resend button says when). */
function VoidMessage({ id, reason }: { id: string; reason: NonNullable<OtpSnapshot['voided']> }) {
  const { t } = useTranslation();
  return (
    <div id={id} className="alert alert-error" role="alert" data-code={reason}>
      <p className="alert-line">
        {reason === 'OTP_TOO_MANY_ATTEMPTS' ? t('code.tooManyAttempts') : t(`errors.${reason}`)}
      </p>
    </div>
  );
}

function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** "Resend OTP in 0:42", enabled once the server's cool-down is over. */
function ResendButton(props: {
  resendAt: number;
  /** The code is void: a new one is what the visitor needs, so the button stands out. */
  prominent: boolean;
  busy: boolean;
  disabled: boolean;
  onResend: () => void;
}) {
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
      className={props.prominent ? 'button button-secondary' : 'button button-link'}
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
