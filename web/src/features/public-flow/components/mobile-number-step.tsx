import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidMobile, sanitizeMobileInput } from '../../../../../rules/phone';
import { errorText } from '../../../i18n/error-text';
import { useRequestOtp } from '../hooks/use-request-otp';

/** Step 1: the visitor's mobile number and the button that sends a WhatsApp code. */
export function MobileNumberStep() {
  const { t } = useTranslation();
  const id = useId();
  const [mobile, setMobile] = useState('');
  const [touched, setTouched] = useState(false);
  const { state, send, reset } = useRequestOtp();

  const valid = isValidMobile(mobile);
  const sending = state.status === 'sending';
  // Say it once the visitor has left the field or typed all ten digits, not on the first keystroke.
  const showInvalid = !valid && mobile.length > 0 && (touched || mobile.length === 10);

  const inputId = `${id}-mobile`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const headingId = `${id}-heading`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || sending) return;
    void send(mobile);
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
        <p id={hintId} className="field-hint">
          {t('step1.mobileHint')}
        </p>
        <div className="input-group">
          <span className="input-prefix" aria-hidden="true">
            +91
          </span>
          <input
            id={inputId}
            name="mobile"
            className="input input-mobile"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            required
            value={mobile}
            aria-invalid={showInvalid}
            aria-describedby={showInvalid ? `${hintId} ${errorId}` : hintId}
            onChange={(event) => {
              setMobile(sanitizeMobileInput(event.target.value));
              if (state.status !== 'idle' && !sending) reset();
            }}
            onBlur={() => setTouched(true)}
          />
        </div>
        <p id={errorId} className="field-error" aria-live="polite">
          {showInvalid ? t('errors.INVALID_PHONE') : ''}
        </p>
      </div>
      <button type="submit" className="button button-primary" disabled={!valid || sending}>
        {sending ? t('step1.sending') : t('step1.send')}
      </button>
      {state.status === 'failed' && (
        <div className="alert alert-error" role="alert">
          {errorText(t, state.code)}
        </div>
      )}
      {state.status === 'sent' && (
        <p className="alert alert-success" role="status">
          {t('step1.otpSentTo')} <span className="nowrap">+91 {state.phone}</span>
        </p>
      )}
    </form>
  );
}
