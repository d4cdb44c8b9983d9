import { useEffect, useState } from 'react';
import { emptyForm, fieldOrder, type FormValues } from '../utils/application-form';
import {
  clearFlow,
  type FlowSnapshot,
  initialSnapshot,
  readFlow,
  type Verification,
  writeFlow,
} from '../utils/flow-storage';
import { ApplicationFormStep } from './application-form-step';
import { Confirmation } from './confirmation';
import { type Failure, FailureMessage } from './failure-message';
import { MembershipIntro } from './membership-intro';
import { MobileNumberStep, type OtpSent } from './mobile-number-step';
import { OtpCodeStep } from './otp-code-step';

/** Nothing typed, nothing verified: nothing worth keeping. */
function isBlank(snapshot: FlowSnapshot): boolean {
  return (
    snapshot.step === 'mobile' &&
    snapshot.mobile === '' &&
    !snapshot.verification &&
    fieldOrder.every((name) => snapshot.form[name] === emptyForm[name])
  );
}

/**
 * The public flow: number, code, form, confirmation. Everything but the code is kept in
 * sessionStorage as it changes, so a reload or a dropped connection loses nothing.
 */
export function PublicFlow() {
  const [restored] = useState(() => readFlow());
  const [snapshot, setSnapshot] = useState<FlowSnapshot>(restored.snapshot);
  const [notice, setNotice] = useState<Failure | null>(restored.expired ? { code: 'VERIFICATION_REQUIRED' } : null);
  const [submitted, setSubmitted] = useState(false);
  // Focus follows the visitor's own step changes, never a page load.
  const [moved, setMoved] = useState(false);

  useEffect(() => {
    if (submitted || isBlank(snapshot)) clearFlow();
    else writeFlow(snapshot);
  }, [snapshot, submitted]);

  if (submitted) return <Confirmation />;

  const go = (next: FlowSnapshot) => {
    setMoved(true);
    setSnapshot(next);
  };

  const onSent = (sent: OtpSent) => {
    setNotice(null);
    go({ ...snapshot, step: 'code', mobile: sent.mobile, otp: { sentTo: sent.sentTo, resendAt: sent.resendAt } });
  };

  const onVerified = (verification: Verification) => {
    const { otp: _spent, ...rest } = snapshot;
    go({ ...rest, step: 'form', verification });
  };

  // Change phone number: back to number entry with nothing kept.
  const onChangeNumber = () => {
    setNotice(null);
    go(initialSnapshot);
  };

  const onVerificationExpired = () => {
    const { verification: _expired, otp: _otp, ...rest } = snapshot;
    setNotice({ code: 'VERIFICATION_REQUIRED' });
    go({ ...rest, step: 'mobile' });
  };

  if (snapshot.step === 'form' && snapshot.verification) {
    return (
      <article className="card">
        <div className="card-body">
          <ApplicationFormStep
            values={snapshot.form}
            verification={snapshot.verification}
            autoFocus={moved}
            onChange={(form: FormValues) => setSnapshot((current) => ({ ...current, form }))}
            onSubmitted={() => setSubmitted(true)}
            onVerificationExpired={onVerificationExpired}
          />
        </div>
      </article>
    );
  }

  return (
    <article className="card">
      <MembershipIntro />
      <div className="card-body">
        {notice && (
          <div className="step-notice">
            <FailureMessage failure={notice} />
          </div>
        )}
        {snapshot.step === 'code' && snapshot.otp ? (
          <OtpCodeStep
            mobile={snapshot.mobile}
            sentTo={snapshot.otp.sentTo}
            resendAt={snapshot.otp.resendAt}
            autoFocus={moved}
            onVerified={onVerified}
            onResent={(resendAt) =>
              setSnapshot((current) => (current.otp ? { ...current, otp: { ...current.otp, resendAt } } : current))
            }
            onChangeNumber={onChangeNumber}
          />
        ) : (
          <MobileNumberStep
            mobile={snapshot.mobile}
            autoFocus={moved}
            onMobileChange={(mobile) => setSnapshot((current) => ({ ...current, mobile }))}
            onSent={onSent}
          />
        )}
      </div>
    </article>
  );
}
