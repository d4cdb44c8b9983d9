import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../../i18n/error-text';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { withdrawMyApplication } from '../api/my-application';
import { clearFlow, type Verification } from '../utils/flow-storage';

type Step = 'offer' | 'confirm' | 'working';

/**
 * Withdrawal of consent (DPDP Act 2023 s. 6(4)): as easy as giving it, one confirmation.
 * The server erases the application; the page forgets the flow (a reload starts afresh).
 * `onWithdrawn` hears whether a confirmation message is on its way to the number.
 */
export function Withdrawal({
  verification,
  onWithdrawn,
}: {
  verification: Verification;
  onWithdrawn: (confirmationQueued: boolean) => void;
}) {
  const { t } = useTranslation();
  const { t: me } = useTranslation('me');
  const [step, setStep] = useState<Step>('offer');
  const [failure, setFailure] = useState<string | null>(null);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
  }, [step]);

  const withdraw = async () => {
    setStep('working');
    setFailure(null);
    try {
      const { confirmationQueued } = await withdrawMyApplication(verification.token);
      clearFlow();
      onWithdrawn(confirmationQueued === true);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'INTERNAL';
      setFailure(code === 'INTERNAL' || code === 'NETWORK_ERROR' ? me('withdraw.failed') : errorText(t, code));
      setStep('confirm');
    }
  };

  return (
    <section className="my-application-section my-application-withdraw" aria-labelledby="withdraw-heading">
      <h3 id="withdraw-heading">{me('withdraw.heading')}</h3>
      <p>{me('withdraw.text')}</p>
      {step === 'offer' ? (
        <button type="button" className="button button-danger" onClick={() => setStep('confirm')}>
          {me('withdraw.button')}
        </button>
      ) : (
        <div className="withdraw-confirm" role="group" aria-labelledby="withdraw-confirm-heading">
          <h4 id="withdraw-confirm-heading" tabIndex={-1} ref={confirmRef}>
            {me('withdraw.confirmTitle')}
          </h4>
          <p>{me('withdraw.confirmText')}</p>
          {failure && (
            <p className="alert alert-error" role="alert">
              {failure}
            </p>
          )}
          <div className="my-application-buttons">
            <button
              type="button"
              className="button button-danger"
              disabled={step === 'working'}
              onClick={() => void withdraw()}
            >
              {step === 'working' ? me('withdraw.working') : me('withdraw.confirm')}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={step === 'working'}
              onClick={() => setStep('offer')}
            >
              {me('withdraw.cancel')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
