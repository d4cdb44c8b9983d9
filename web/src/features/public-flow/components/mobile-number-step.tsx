import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { LegalLink } from '../../../components/legal-link';
import { splitTagged } from '../../../lib/tagged-text';
import { mobileProblem, sanitizeMobileInput } from '../../../../../rules/phone';
import { requestOtp } from '../api/request-otp';
import { useCaptcha } from '../hooks/use-captcha';
import { isResumable, type OtpSnapshot, otpSnapshotOf } from '../utils/flow-storage';
import { CaptchaNotice } from './captcha-notice';
import { type Failure, FailureMessage, failureOf } from './failure-message';
import { fieldAria } from './form-field';

/**
 * Digits only, cut to 10; a pasted "+91 98765 43210" or "098765 43210" keeps the
 * ten digits of the number rather than its first ten characters.
 */
export function mobileFromInput(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return sanitizeMobileInput(digits);
}

export interface OtpSent {
  readonly mobile: string;
  /** Where the code went, by which channel, and when another may be asked for. */
  readonly otp: OtpSnapshot;
}

interface MobileNumberStepProps {
  readonly mobile: string;
  /** Focus the number on mount (back from the code or the form), not on a page load. */
  readonly autoFocus?: boolean;
  /** The code sent before "Change phone number": entering that number again goes back to it. */
  readonly earlier?: OtpSent;
  readonly onMobileChange: (mobile: string) => void;
  readonly onSent: (sent: OtpSent) => void;
}

/**
 * Step 1: the visitor's mobile number and the button that sends the code (by WhatsApp, or SMS).
 * size-exception: over 120 lines on purpose: it is on the public page's first view (99.8 of 100 KB), and
 * every hook or component split out of it adds bytes there.
 */
export function MobileNumberStep({
  mobile,
  autoFocus = false,
  earlier,
  onMobileChange,
  onSent,
}: MobileNumberStepProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The service is busy and the request is being tried again.
  const [retrying, setRetrying] = useState(false);
  // The captcha script loads when the visitor starts on the number (or has already).
  const [engaged, setEngaged] = useState(mobile !== '');
  const captcha = useCaptcha(engaged);

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const problem = mobileProblem(mobile);
  const valid = problem === undefined;
  // Say it once the visitor has left the field or typed all ten digits, not on the first keystroke.
  const shownProblem = mobile.length > 0 && (touched || mobile.length === 10) ? problem : undefined;
  const shownFailure: Failure | null = failure ?? (captcha.state === 'failed' ? { code: 'CAPTCHA_FAILED' } : null);

  const inputId = `${id}-mobile`;
  const headingId = `${id}-heading`;

  const send = async () => {
    setSending(true);
    setFailure(null);
    try {
      let captchaToken: string;
      try {
        captchaToken = await captcha.token();
      } catch {
        setFailure({ code: 'CAPTCHA_FAILED' });
        return;
      }
      const language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
      const sent = await requestOtp({ mobile, captchaToken, language }, { onRetry: () => setRetrying(true) });
      onSent({ mobile, otp: otpSnapshotOf(sent, Date.now()) });
    } catch (error) {
      setFailure(failureOf(error));
      inputRef.current?.focus();
    } finally {
      setSending(false);
      setRetrying(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || sending) return;
    // The same number again: the code already sent still works, or a new one cannot be sent
    // yet (the code step says when). Asking again would only meet the one-minute wait.
    if (earlier?.mobile === mobile && isResumable(earlier.otp, Date.now())) return onSent(earlier);
    if (captcha.state !== 'ready') return;
    void send();
  };

  return (
    <form className="step" aria-labelledby={headingId} noValidate onSubmit={onSubmit}>
      <h2 id={headingId} className="step-heading">
        {t('step1.heading')}
      </h2>
      <div className="field">
        <label htmlFor={inputId} className="field-label">
          {t('step1.mobileLabel')}
        </label>
        <p id={`${inputId}-hint`} className="field-hint">
          {t('step1.mobileHint')}
        </p>
        <div className="input-group">
          <span className="input-prefix" aria-hidden="true">
            +91
          </span>
          <input
            ref={inputRef}
            id={inputId}
            name="mobile"
            className="input input-mobile"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            required
            value={mobile}
            {...fieldAria(inputId, { hint: true, error: shownProblem })}
            onFocus={() => setEngaged(true)}
            onChange={(event) => {
              setEngaged(true);
              onMobileChange(mobileFromInput(event.target.value));
              if (!sending) setFailure(null);
            }}
            onBlur={() => setTouched(true)}
          />
        </div>
        {/* One line kept free for the message, so that Send does not jump as it appears. */}
        <p id={`${inputId}-error`} className="field-error field-error-reserved" aria-live="polite">
          {shownProblem ? t(`errors.${shownProblem}`) : ''}
        </p>
      </div>
      <button type="submit" className="button button-primary" disabled={!valid || sending || captcha.state !== 'ready'}>
        {sending ? t('step1.sending') : t('step1.send')}
      </button>
      {/* The notice before the number leaves the page (DPDP Act 2023 s.5), in the dialog the
          footer uses, so that the number typed stays; one small line, the first view is full. */}
      <p className="data-notice">
        {splitTagged(t('step1.dataNotice')).map((part, index) =>
          part.tag ? (
            <LegalLink key={index} name="notice">
              {part.text}
            </LegalLink>
          ) : (
            part.text
          ),
        )}
      </p>
      <div className="step-messages">
        {retrying && (
          <p className="field-hint busy-notice" role="status">
            {t('errors.SERVICE_BUSY')}
          </p>
        )}
        {captcha.state === 'loading' && valid && (
          <p className="field-hint" role="status">
            {t('step1.captchaLoading')}
          </p>
        )}
        {shownFailure && <FailureMessage failure={shownFailure} />}
      </div>
      <CaptchaNotice />
    </form>
  );
}
