import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signIn } from '../api/sign-in';

interface FieldErrors {
  readonly email?: boolean;
  readonly password?: boolean;
}

/** The auth service's own message when it gives one (spec 8), else "Login failed". */
type Failure = { readonly message: string } | { readonly message?: undefined };

export function SignInForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const submit = async () => {
    const errors: FieldErrors = { email: email.trim() === '', password: password === '' };
    setFieldErrors(errors);
    setFailure(null);
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();

    setSubmitting(true);
    try {
      await signIn({ email: email.trim(), password });
      onSignedIn?.();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? { message: error.message } : {});
    } finally {
      setSubmitting(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!submitting) void submit();
  };

  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;

  return (
    <form className="step" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      {failure && (
        <div className="alert alert-error" role="alert">
          {failure.message === undefined ? t('admin.loginFailed') : <span lang="en">{failure.message}</span>}
        </div>
      )}
      <div className="field">
        <label htmlFor={emailId} className="field-label">
          {t('admin.email')}
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
            {t('admin.emailRequired')}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={passwordId} className="field-label">
          {t('admin.password')}
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
            {t('admin.passwordRequired')}
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={submitting}>
        {submitting ? t('admin.signingIn') : t('admin.login')}
      </button>
    </form>
  );
}
