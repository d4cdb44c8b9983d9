import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { useCaptcha } from '../hooks/use-captcha';
import { useDeliveryStatus } from '../hooks/use-delivery-status';
import { useOtpActions } from '../hooks/use-otp-actions';
import { digitsOnly } from '../utils/application-form-values';
import type { OtpSnapshot, Verification } from '../utils/flow-storage';
import { FailureMessage } from './failure-message';

interface OtpCodeStepProps {
  readonly mobile: string;
  /** Where and how the code went (kept in sessionStorage across a reload). */
  readonly otp: OtpSnapshot;
  /** Focus the code field on mount (after the code was just sent, not after a reload). */
  readonly autoFocus: boolean;
  readonly onVerified: (verification: Verification) => void;
  /** The right code, from a number that has applied already: no verification, the message instead of the form. */
  readonly onRegistered: (verification?: Verification) => void;
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
export function OtpCodeStep(props: OtpCodeStepProps) {
  const { mobile, otp, autoFocus, onChangeNumber, pollIntervalMs } = props;
  const { t } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const captcha = useCaptcha();
  const delivery = useDeliveryStatus(mobile, otp, pollIntervalMs);
  const { busy, failure, retrying, refusedHandle, verify, send } = useOtpActions({
    ...props,
    code,
    setCode,
    inputRef,
    captcha,
  });
  const { sentTo, resendAt, channel } = otp;
  const number = `+91\u00a0${sentTo}`;

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const inputId = `${id}-code`;
  const headingId = `${id}-heading`;
  const complete = code.length === 6;
  // Void (too many wrong guesses, expired): the box closes and Resend is the way on.
  const voided = otp.voided;

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
      <SentInfo
        otp={otp}
        number={number}
        delivered={delivered}
        whatsappFailed={whatsappFailed}
        offerSms={offerSms}
        switching={busy === 'switching'}
        disabled={busy !== null || captcha.state !== 'ready'}
        onSwitch={() => void send('switching')}
      />
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

/** Where the code went and whether it arrived; the offer to send it by SMS instead. */
function SentInfo({
  otp,
  number,
  delivered,
  whatsappFailed,
  offerSms,
  switching,
  disabled,
  onSwitch,
}: {
  otp: OtpSnapshot;
  number: string;
  delivered: boolean;
  whatsappFailed: boolean;
  offerSms: boolean;
  switching: boolean;
  disabled: boolean;
  onSwitch: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="sent-info">
        <p className="alert alert-success" role="status" data-channel={otp.channel}>
          {otp.channel === 'whatsapp' ? (
            <>
              {t('step1.otpSentTo')} <span className="nowrap">+91 {otp.sentTo}</span>
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
          <button type="button" className="button button-secondary" disabled={disabled} onClick={onSwitch}>
            {switching ? t('code.sendingBySms') : t('code.sendBySms')}
          </button>
        </div>
      )}
    </>
  );
}

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
