import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { answerChallenge, type SignInOutcome } from '../api/sign-in';
import { useSignInStep } from '../hooks/use-sign-in-step';
import { checkPassword, meetsPolicy, passwordRules } from '../utils/password-policy';

type Problem = 'policy' | 'mismatch' | null;

/** First sign-in of an admin-created user: replace the temporary password (Cognito's challenge). */
export function NewPasswordForm({
  onNextStep,
  onCancel,
}: {
  onNextStep: (outcome: SignInOutcome) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('staff');
  const id = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<Problem>(null);
  const checks = checkPassword(password);
  const { submitting, failure, onSubmit } = useSignInStep(
    'newPassword',
    () => {
      if (!meetsPolicy(password)) {
        setProblem('policy');
        return void passwordRef.current?.focus();
      }
      if (password !== confirm) {
        setProblem('mismatch');
        return void confirmRef.current?.focus();
      }
      setProblem(null);
      return () => answerChallenge(password);
    },
    onNextStep,
  );

  const passwordId = `${id}-new`;
  const confirmId = `${id}-confirm`;
  const policyId = `${id}-policy`;

  return (
    <form className="step" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      {failure && (
        <div className="alert alert-error" role="alert">
          <p className="alert-line">{t(failure)}</p>
        </div>
      )}
      <div className="password-policy" id={policyId}>
        <p className="password-policy-title">{t('newPassword.policyTitle')}</p>
        <ul className="password-rules">
          {passwordRules.map((rule) => (
            <li key={rule} className="password-rule" data-met={checks[rule]}>
              <span className="password-rule-mark" aria-hidden="true">
                {checks[rule] ? '✓' : '•'}
              </span>
              <span>{t(`newPassword.rules.${rule}`)}</span>
              <span className="visually-hidden">
                {' '}
                ({checks[rule] ? t('newPassword.ruleMet') : t('newPassword.ruleMissing')})
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="field">
        <label htmlFor={passwordId} className="field-label">
          {t('newPassword.newPassword')}
        </label>
        <input
          ref={passwordRef}
          id={passwordId}
          name="new-password"
          className="input"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          aria-invalid={problem === 'policy'}
          aria-describedby={problem === 'policy' ? `${passwordId}-error ${policyId}` : policyId}
          onChange={(event) => setPassword(event.target.value)}
        />
        {problem === 'policy' && (
          <p id={`${passwordId}-error`} className="field-error">
            {t('newPassword.policyFailed')}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={confirmId} className="field-label">
          {t('newPassword.confirm')}
        </label>
        <input
          ref={confirmRef}
          id={confirmId}
          name="confirm-password"
          className="input"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          aria-invalid={problem === 'mismatch'}
          aria-describedby={problem === 'mismatch' ? `${confirmId}-error` : undefined}
          onChange={(event) => setConfirm(event.target.value)}
        />
        {problem === 'mismatch' && (
          <p id={`${confirmId}-error`} className="field-error">
            {t('newPassword.mismatch')}
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={submitting}>
        {submitting && <span className="button-spinner" aria-hidden="true" />}
        {submitting ? t('newPassword.submitting') : t('newPassword.submit')}
      </button>
      <button type="button" className="button button-link" onClick={onCancel} disabled={submitting}>
        {t('newPassword.cancel')}
      </button>
    </form>
  );
}
