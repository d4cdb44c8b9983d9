import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { enForm as en } from '../../../i18n/en-form';
import { taForm as ta } from '../../../i18n/ta-form';
import { MembershipIntro } from './membership-intro';

/** After a submit: the slogan, and the thank-you in Tamil and in English whatever the language. */
export function Confirmation() {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <article className="card confirmation">
      <MembershipIntro title={t('confirmation.slogan')} description={null} headingRef={headingRef} />
      <div className="card-body confirmation-body">
        <span className="confirmation-mark" aria-hidden="true">
          ✓
        </span>
        <p lang="ta" className="confirmation-thanks">
          {ta.confirmation.thanks}
        </p>
        <p lang="en" className="confirmation-thanks">
          {en.confirmation.thanks}
        </p>
      </div>
    </article>
  );
}
