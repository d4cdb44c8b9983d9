import { useEffect, useRef, useState } from 'react';
import type { MyApplication as Data } from '../../../../../rules/my-application';
import { errorText } from '../../../i18n/error-text';
import { addMeTranslations } from '../../../i18n/my-application';
import { useTranslation } from '../../../i18n/use-translation';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../paths';
import { getMyApplication } from '../api/my-application';
import type { Verification } from '../utils/flow-storage';
import { myApplicationSections } from '../utils/my-application-rows';
import { Correction } from './correction';
import { GrievanceForm } from './grievance-form';
import { MyApplicationCopy } from './my-application-copy';
import { Withdrawal } from './withdrawal';
import './my-application.css';

type State = { kind: 'closed' } | { kind: 'loading' } | { kind: 'failed'; code: string } | { kind: 'open'; data: Data };

/**
 * "My application" (issue 21, DPDP Act 2023 s. 11): everything held about the applicant,
 * as stored, in their language: every field, the consent they gave, what happened to the
 * application (no staff names), the messages sent and their delivery, the card; a copy as
 * data or PDF; and the withdrawal, one confirmation away.
 */
export function MyApplication({
  verification,
  onWithdrawn,
}: {
  verification: Verification;
  /** The application is gone: the registered step gives way to the confirmation. */
  onWithdrawn: (confirmationQueued: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  // Both languages' strings travel in this chunk: the language switch changes everything at once.
  useState(() => addMeTranslations(i18n));
  const { t: me } = useTranslation('me');
  const [state, setState] = useState<State>({ kind: 'closed' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.kind === 'open') headingRef.current?.focus();
  }, [state.kind]);

  const open = async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'open', data: await getMyApplication(verification.token) });
    } catch (error) {
      setState({ kind: 'failed', code: error instanceof ApiError ? error.code : 'INTERNAL' });
    }
  };

  // After a correction: the panel stays open and shows the application as it now is.
  const reload = async () => {
    try {
      setState({ kind: 'open', data: await getMyApplication(verification.token) });
    } catch {
      // The corrected values are saved; what shows is the panel as it was until it is opened again.
    }
  };

  if (state.kind !== 'open') {
    return (
      <>
        <button
          type="button"
          className="button button-secondary"
          disabled={state.kind === 'loading'}
          onClick={() => void open()}
        >
          {state.kind === 'loading' ? me('opening') : me('open')}
        </button>
        {state.kind === 'failed' && (
          <p className="alert alert-error" role="alert">
            {errorText(t, state.code)}
          </p>
        )}
      </>
    );
  }

  const sections = myApplicationSections(state.data, t, me, i18n.language);
  return (
    <section className="my-application" aria-labelledby="my-application-heading">
      <h2 id="my-application-heading" className="step-heading" tabIndex={-1} ref={headingRef}>
        {me('title')}
      </h2>
      <p className="my-application-intro">{me('intro')}</p>
      {sections.map((section) => (
        <section key={section.heading} className="my-application-section">
          <h3>{section.heading}</h3>
          <dl>
            {section.rows.map((row, i) => (
              <div key={i} className={row.label ? 'my-application-row' : 'my-application-row my-application-line'}>
                {row.label && <dt>{row.label}</dt>}
                <dd>{row.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      {state.data.cardLink && (
        <section className="my-application-section">
          <h3>{me('card.heading')}</h3>
          <a className="button button-secondary" href={paths.card.getHref(state.data.cardLink)}>
            {me('card.open')}
          </a>
        </section>
      )}
      <Correction verification={verification} application={state.data.application} onCorrected={() => void reload()} />
      <MyApplicationCopy data={state.data} sections={sections} />
      <GrievanceForm verification={verification} />
      <Withdrawal verification={verification} onWithdrawn={onWithdrawn} />
    </section>
  );
}

/**
 * After the withdrawal, in place of the whole step: nothing of the application is left to
 * show; a confirmation message is said to be on its way only when the server queued one.
 */
export function Withdrawn({
  onHome,
  confirmationQueued = false,
}: {
  onHome: () => void;
  confirmationQueued?: boolean;
}) {
  const { i18n } = useTranslation();
  useState(() => addMeTranslations(i18n));
  const { t: me } = useTranslation('me');
  const headingRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="step">
      <p className="alert alert-success" role="status" tabIndex={-1} ref={headingRef}>
        {me('withdraw.done')}
        {confirmationQueued && ` ${me('withdraw.messageOnItsWay')}`}
      </p>
      <button type="button" className="button button-primary" onClick={onHome}>
        {me('withdraw.home')}
      </button>
    </div>
  );
}
