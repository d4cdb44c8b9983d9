import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { SignInOutcome, TotpSetup } from '../api/sign-in';
import { NewPasswordForm } from './new-password-form';
import { SignInForm } from './sign-in-form';
import { TotpForm } from './totp-form';
import { TotpSetupForm } from './totp-setup-form';

type Step = 'credentials' | 'newPassword' | 'totp' | 'totpSetup';

const headings = {
  credentials: 'login',
  newPassword: 'newPassword',
  totp: 'totp',
  totpSetup: 'totpSetup',
} as const satisfies Record<Step, string>;

/**
 * The login screen (spec 2.2): email and password, then whatever Cognito asks next.
 * Being signed in is not decided here: the gate hears it from Amplify's Hub.
 */
export function LoginScreen() {
  const { t } = useTranslation('staff');
  const [step, setStep] = useState<Step>('credentials');
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [unsupported, setUnsupported] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    // A new step is announced by moving focus to its heading (not on first display).
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const onNextStep = (outcome: SignInOutcome) => {
    if (outcome.kind === 'done') return;
    if (outcome.kind === 'unsupported') {
      setUnsupported(outcome.step);
      setStep('credentials');
      return;
    }
    setUnsupported(null);
    setSetup(outcome.kind === 'totpSetup' ? outcome.setup : null);
    setStep(outcome.kind);
  };
  const backToCredentials = () => setStep('credentials');

  const title = t(`${headings[step]}.title`);
  const intro = t(`${headings[step]}.intro`);

  return (
    <article className="card card-narrow" data-testid="staff-login">
      <div className="card-body">
        <h1 className="page-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        <p className="page-intro">{intro}</p>
        {unsupported && step === 'credentials' && (
          <div className="alert alert-error step-notice" role="alert">
            {t('login.unsupportedStep', { step: unsupported })}
          </div>
        )}
        {step === 'credentials' && <SignInForm onNextStep={onNextStep} />}
        {step === 'newPassword' && <NewPasswordForm onNextStep={onNextStep} onCancel={backToCredentials} />}
        {step === 'totp' && <TotpForm onNextStep={onNextStep} onCancel={backToCredentials} />}
        {step === 'totpSetup' && setup && (
          <TotpSetupForm setup={setup} onNextStep={onNextStep} onCancel={backToCredentials} />
        )}
      </div>
    </article>
  );
}
