import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { useRuntimeConfig } from '../../../config';
import { authFlowFor } from '../api/configure-amplify';
import { type SignInOutcome, signInStaff } from '../api/sign-in';
import { useSignInStep } from '../hooks/use-sign-in-step';

interface FieldErrors {
  readonly email?: boolean;
  readonly password?: boolean;
}

/** Email, password, "Login". Success is announced by Amplify's Hub; other steps go to `onNextStep`. */
export function SignInForm({ onNextStep }: { onNextStep?: (outcome: SignInOutcome) => void }) {
  const { t } = useTranslation('staff');
  const config = useRuntimeConfig();
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const { submitting, failure, onSubmit } = useSignInStep(
    'signIn',
    () => {
      const errors: FieldErrors = { email: email.trim() === '', password: password === '' };
      setFieldErrors(errors);
      if (errors.email) return void emailRef.current?.focus();
      if (errors.password) return void passwordRef.current?.focus();
      return () => signInStaff({ email: email.trim(), password }, authFlowFor(config.cognito));
    },
    onNextStep,
  );

  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;

  return (
    <form className="step" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      {failure && (
        <div className="alert alert-error" role="alert">
          {t(failure)}
        </div>
      )}
      <div className="field">
        <label htmlFor={emailId} className="field-label">
          {t('login.email')}
        </label>
        <input
          ref={emailRef}
          id={emailId}
          name="email"
          className="input"
          type="email"
          autoComplete="username"
          required
          value={email}
          aria-invalid={fieldErrors.email === true}
          aria-describedby={fieldErrors.email ? `${emailId}-error` : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        {fieldErrors.email && (
          <p id={`${emailId}-error`} className="field-error">
            {t('login.emailRequired')}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={passwordId} className="field-label">
          {t('login.password')}
        </label>
        <input
          ref={passwordRef}
          id={passwordId}
          name="password"
          className="input"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          aria-invalid={fieldErrors.password === true}
          aria-describedby={fieldErrors.password ? `${passwordId}-error` : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        {fieldErrors.password && (
          <p id={`${passwordId}-error`} className="field-error">
            {t('login.passwordRequired')}
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={submitting}>
        {submitting && <span className="button-spinner" aria-hidden="true" />}
        {submitting ? t('login.signingIn') : t('login.login')}
      </button>
    </form>
  );
}
