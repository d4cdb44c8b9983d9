import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../../components/spinner';
import { useTranslation } from '../../../i18n/use-translation';
import type { Verification } from '../utils/flow-storage';
import { FailureMessage } from './failure-message';
import { GetMyCard } from './get-my-card';

const MyApplication = lazy(async () => ({ default: (await import('./my-application')).MyApplication }));
const Withdrawn = lazy(async () => ({ default: (await import('./my-application')).Withdrawn }));

/**
 * The right code from a number that has applied: "already registered", said only now
 * (the send answers the same for every number). With the verification of the number
 * (issues 20 and 21): "Get my card" and "My application", which shows everything held and
 * offers the withdrawal. A chunk of its own: the first view carries none of it.
 */
export function RegisteredStep({
  verification,
  ready,
  onChangeNumber,
}: {
  verification: Verification | undefined;
  /** The later steps' strings are there (the buttons' labels). */
  ready: boolean;
  onChangeNumber: () => void;
}) {
  const { t } = useTranslation();
  // After the withdrawal: whether a confirmation message is on its way.
  const [withdrawn, setWithdrawn] = useState<{ confirmationQueued: boolean }>();
  if (withdrawn)
    return (
      <Suspense fallback={<Spinner label={t('shell.loading')} />}>
        <Withdrawn onHome={onChangeNumber} confirmationQueued={withdrawn.confirmationQueued} />
      </Suspense>
    );
  return (
    <div className="step registered">
      <FailureMessage failure={{ code: 'ALREADY_REGISTERED' }} />
      {verification && ready && (
        <>
          <GetMyCard verification={verification} />
          <Suspense fallback={<Spinner label={t('shell.loading')} />}>
            <MyApplication
              verification={verification}
              onWithdrawn={(confirmationQueued) => setWithdrawn({ confirmationQueued })}
            />
          </Suspense>
        </>
      )}
      <button type="button" className="button button-secondary" onClick={onChangeNumber}>
        {t('step1.changeNumber')}
      </button>
    </div>
  );
}
