import { type FormEvent, useId, useRef, useState } from 'react';
import type { GrievanceOpened } from '../../../../../rules/grievances';
import { addGrievanceTranslations } from '../../../i18n/grievance';
import { useTranslation } from '../../../i18n/use-translation';
import { openMyGrievance } from '../api/grievances';
import type { Verification } from '../utils/flow-storage';
import { type Failure, FailureMessage } from './failure-message';
import { grievanceFailureOf, GrievanceReceipt, GrievanceTextField, grievanceTextProblem } from './grievance-parts';

/**
 * A grievance from "My application" (issue 21): the number is the one just proved with the
 * code, so only the text is asked. The answer comes to that number; the applicant is told
 * the reference and the due date.
 */
export function GrievanceForm({ verification }: { verification: Verification }) {
  const { i18n } = useTranslation();
  useState(() => addGrievanceTranslations(i18n));
  const { t: g } = useTranslation('grievance');
  const id = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sending, setSending] = useState(false);
  const [opened, setOpened] = useState<GrievanceOpened | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = grievanceTextProblem(text);
    setFieldError(problem);
    setFailure(null);
    if (problem) return textRef.current?.focus();
    setSending(true);
    try {
      setOpened(await openMyGrievance(verification.token, text, i18n.language === 'ta' ? 'ta' : 'en'));
    } catch (error) {
      const { fields, failure: other } = grievanceFailureOf(error);
      setFieldError(fields.text);
      setFailure(other ?? (fields.text ? null : { code: 'VALIDATION_FAILED' }));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="my-application-section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{g('title')}</h3>
      {opened ? (
        <GrievanceReceipt opened={opened}>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setOpened(null);
              setText('');
            }}
          >
            {g('another')}
          </button>
        </GrievanceReceipt>
      ) : (
        <form className="step" noValidate onSubmit={(event) => void submit(event)}>
          <p className="my-application-intro">{g('mineIntro')}</p>
          <GrievanceTextField
            id={`${id}-text`}
            value={text}
            error={fieldError}
            inputRef={textRef}
            onChange={(value) => {
              setText(value);
              setFieldError(undefined);
            }}
          />
          {failure && <FailureMessage failure={failure} />}
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending ? g('submitting') : g('submit')}
          </button>
        </form>
      )}
    </section>
  );
}
