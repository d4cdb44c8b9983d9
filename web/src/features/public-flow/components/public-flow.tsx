import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { Spinner } from '../../../components/spinner';
import { loadFormStrings } from '../../../i18n/i18n';
import { emptyForm, fieldOrder, type FormValues } from '../utils/application-form-values';
import {
  clearFlow,
  doneSnapshot,
  type FlowSnapshot,
  initialSnapshot,
  type OtpSnapshot,
  readFlow,
  registeredSnapshot,
  type Verification,
  writeFlow,
} from '../utils/flow-storage';
import { type Failure, FailureMessage } from './failure-message';
import { MembershipIntro } from './membership-intro';
import { MobileNumberStep, type OtpSent } from './mobile-number-step';

// The first view is the number step alone; each later step is a chunk of its own. The
// code step (its delivery polling and SMS offer) and the later steps' strings are fetched
// when the visitor types a digit. The form step (its checks with valibot, the 234
// constituencies) and the confirmation are fetched while the visitor waits for the code,
// so they are there when the code is right.
const loadCodeStep = () => import('./otp-code-step');
const loadFormStep = () => import('./application-form-step');
const loadConfirmation = () => import('./confirmation');
const OtpCodeStep = lazy(async () => ({ default: (await loadCodeStep()).OtpCodeStep }));
const ApplicationFormStep = lazy(async () => ({ default: (await loadFormStep()).ApplicationFormStep }));
const Confirmation = lazy(async () => ({ default: (await loadConfirmation()).Confirmation }));
const RegisteredStep = lazy(async () => ({ default: (await import('./registered-step')).RegisteredStep }));

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
 * size-exception: over 120 lines on purpose: it is on the public page's first view (99.8 of 100 KB), and
 * every hook or component split out of it adds bytes there; the later steps are split.
 */
export function PublicFlow() {
  const [restored] = useState(() => readFlow());
  const [snapshot, setSnapshot] = useState<FlowSnapshot>(restored.snapshot);
  const [notice, setNotice] = useState<Failure | null>(restored.expired ? { code: 'VERIFICATION_REQUIRED' } : null);
  const [submitted, setSubmitted] = useState(restored.snapshot.step === 'done');
  // Focus follows the visitor's own step changes, never a page load.
  const [moved, setMoved] = useState(false);
  // The code sent before "Change phone number": the same number again goes back to it.
  const [earlier, setEarlier] = useState<{ mobile: string; otp: OtpSnapshot } | undefined>();

  const { t, i18n } = useTranslation();
  const needsForm = snapshot.step !== 'mobile';
  const [formStrings, setFormStrings] = useState(false);
  useEffect(() => {
    if (!needsForm) return;
    void Promise.all([loadCodeStep(), loadFormStep(), loadConfirmation()]);
    let live = true;
    loadFormStrings(i18n).then(
      () => live && setFormStrings(true),
      () => undefined, // Offline: the spinner stays; the next step change tries again.
    );
    return () => {
      live = false;
    };
  }, [needsForm, i18n]);
  const loading = <Spinner label={t('shell.loading')} />;
  // Fetched ahead as the number was typed: no spinner flash on the way to the code step.
  const laterStrings = formStrings || i18n.exists('form.submit', { lng: i18n.language, fallbackLng: false });

  useEffect(() => {
    // A campaign's or a member's link (?c=…, utm_…): kept for the submit, out of the first view's bundle.
    if (!window.location.search) return;
    import('../utils/attribution').then(
      (m) => m.captureAttribution(),
      () => undefined, // Offline: the address keeps the parameters, and the submit reads them from there.
    );
  }, []);

  useEffect(() => {
    // After a submit only the step is kept: a reload shows the thank-you, not an empty number.
    if (submitted) writeFlow(doneSnapshot);
    else if (isBlank(snapshot)) clearFlow();
    else writeFlow(snapshot);
  }, [snapshot, submitted]);

  if (submitted) {
    return <Suspense fallback={loading}>{formStrings ? <Confirmation /> : loading}</Suspense>;
  }

  const go = (next: FlowSnapshot) => {
    setMoved(true);
    setSnapshot(next);
  };

  const onSent = (sent: OtpSent) => {
    setNotice(null);
    go({ ...snapshot, step: 'code', mobile: sent.mobile, otp: sent.otp });
  };

  // Said only now, after the right code: the send answers the same for every number.
  // Its verification (when sent) is kept for "Get my card".
  const onRegistered = (verification?: Verification) => go({ ...registeredSnapshot, verification });

  const onVerified = (verification: Verification) => {
    const { otp: _spent, ...rest } = snapshot;
    go({ ...rest, step: 'form', verification });
  };

  // Change phone number: back to an empty number entry; only this page remembers the code sent.
  const onChangeNumber = () => {
    setNotice(null);
    if (snapshot.otp) setEarlier({ mobile: snapshot.mobile, otp: snapshot.otp });
    go(initialSnapshot);
  };

  const onVerificationExpired = () => {
    const { verification: _expired, otp: _otp, ...rest } = snapshot;
    setNotice({ code: 'VERIFICATION_REQUIRED' });
    go({ ...rest, step: 'mobile' });
  };

  if (snapshot.step === 'registered') {
    return (
      <article className="card">
        <MembershipIntro />
        <div className="card-body">
          <Suspense fallback={loading}>
            <RegisteredStep
              verification={snapshot.verification}
              ready={formStrings}
              onChangeNumber={() => go(initialSnapshot)}
            />
          </Suspense>
        </div>
      </article>
    );
  }

  if (snapshot.step === 'form' && snapshot.verification) {
    return (
      <article className="card">
        <div className="card-body">
          <Suspense fallback={loading}>
            {formStrings ? (
              <ApplicationFormStep
                values={snapshot.form}
                verification={snapshot.verification}
                autoFocus={moved}
                onChange={(form: FormValues) => setSnapshot((current) => ({ ...current, form }))}
                onSubmitted={() => setSubmitted(true)}
                onVerificationExpired={onVerificationExpired}
              />
            ) : (
              loading
            )}
          </Suspense>
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
          <Suspense fallback={loading}>
            {laterStrings ? (
              <OtpCodeStep
                mobile={snapshot.mobile}
                otp={snapshot.otp}
                autoFocus={moved}
                onVerified={onVerified}
                onRegistered={onRegistered}
                onResent={(otp) => setSnapshot((current) => (current.step === 'code' ? { ...current, otp } : current))}
                onChangeNumber={onChangeNumber}
              />
            ) : (
              loading
            )}
          </Suspense>
        ) : (
          <MobileNumberStep
            mobile={snapshot.mobile}
            autoFocus={moved}
            earlier={earlier}
            onMobileChange={(mobile) => {
              void loadCodeStep();
              loadFormStrings(i18n).catch(() => undefined); // Again at the code step, if offline now.
              setSnapshot((current) => ({ ...current, mobile }));
            }}
            onSent={onSent}
          />
        )}
      </div>
    </article>
  );
}
