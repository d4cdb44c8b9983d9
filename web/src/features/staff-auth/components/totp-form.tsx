import { type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { answerChallenge, type SignInOutcome } from '../api/sign-in';
import { useSignInStep } from '../hooks/use-sign-in-step';

/**
 * The authenticator's code (the pool requires TOTP MFA). Enrolment uses the same form for
 * its first code, with the QR code and the key above it (`children`).
 */
export function TotpForm({
  onNextStep,
  onCancel,
  children,
  codeLabel,
  submitLabel,
}: {
  onNextStep: (outcome: SignInOutcome) => void;
  onCancel: () => void;
  children?: ReactNode;
  codeLabel?: string;
  submitLabel?: string;
}) {
  const { t } = useTranslation('staff');
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const { submitting, failure, onSubmit } = useSignInStep(
    'totp',
    () => {
      const valid = /^\d{6}$/.test(code);
      setInvalid(!valid);
      if (!valid) return void inputRef.current?.focus();
      return () => answerChallenge(code);
    },
    onNextStep,
    () => setCode(''),
  );
  const codeId = `${id}-code`;

  return (
    <form className="step" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      {failure && (
        <div className="alert alert-error" role="alert">
          <p className="alert-line">{t(failure)}</p>
        </div>
      )}
      {children}
      <div className="field">
        <label htmlFor={codeId} className="field-label">
          {codeLabel ?? t('totp.code')}
        </label>
        <input
          ref={inputRef}
          id={codeId}
          name="code"
          className="input input-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${codeId}-error` : undefined}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        {invalid && (
          <p id={`${codeId}-error`} className="field-error">
            {t('totp.invalid')}
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={submitting}>
        {submitting ? t('totp.submitting') : (submitLabel ?? t('totp.submit'))}
      </button>
      <button type="button" className="button button-link" onClick={onCancel} disabled={submitting}>
        {t('newPassword.cancel')}
      </button>
    </form>
  );
}
