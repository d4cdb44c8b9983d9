import { type FormEvent, useId, useRef, useState } from 'react';
import { GRIEVANCE_CAPTCHA_ACTION, type GrievanceOpened } from '../../../../../rules/grievances';
import { mobileProblem } from '../../../../../rules/phone';
import { addGrievanceTranslations } from '../../../i18n/grievance';
import { useTranslation } from '../../../i18n/use-translation';
import { paths } from '../../../paths';
import { openContactGrievance } from '../api/grievances';
import { useCaptcha } from '../hooks/use-captcha';
import { CaptchaNotice } from './captcha-notice';
import { type Failure, FailureMessage } from './failure-message';
import { fieldAria } from './form-field';
import { GrievanceAnswer } from './grievance-answer';
import { grievanceFailureOf, GrievanceReceipt, GrievanceTextField, grievanceTextProblem } from './grievance-parts';
import { mobileFromInput } from './mobile-number-step';

/**
 * /grievance (issue 21): a grievance without a code, with a contact number, behind the
 * captcha as the code request is; or, with `#<link>` (the answer's SMS), the answer page.
 * The footer and the data notice page link here; its own chunk.
 */
export function GrievancePage() {
  const { i18n } = useTranslation();
  useState(() => addGrievanceTranslations(i18n));
  const [link] = useState(() => window.location.hash.replace(/^#/, ''));
  return (
    <article className="card card-narrow grievance-page">
      <div className="card-body">{link ? <GrievanceAnswer link={link} /> : <ContactGrievance />}</div>
    </article>
  );
}

function ContactGrievance() {
  const { t, i18n } = useTranslation();
  const { t: g } = useTranslation('grievance');
  const id = useId();
  const mobileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [mobile, setMobile] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<{ mobile?: string; text?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sending, setSending] = useState(false);
  const [engaged, setEngaged] = useState(false);
  const [opened, setOpened] = useState<GrievanceOpened | null>(null);
  const captcha = useCaptcha(engaged, GRIEVANCE_CAPTCHA_ACTION);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = { mobile: mobileProblem(mobile), text: grievanceTextProblem(text) };
    setErrors(found);
    setFailure(null);
    if (found.mobile) return mobileRef.current?.focus();
    if (found.text) return textRef.current?.focus();
    setSending(true);
    try {
      const captchaToken = await captcha.token().catch(() => undefined);
      if (!captchaToken) return setFailure({ code: 'CAPTCHA_FAILED' });
      const language = i18n.language === 'ta' ? 'ta' : 'en';
      setOpened(await openContactGrievance({ mobile, captchaToken, text, language }));
    } catch (error) {
      const { fields, failure: other } = grievanceFailureOf(error);
      setErrors({ mobile: fields.mobile, text: fields.text });
      setFailure(other ?? (fields.mobile || fields.text ? null : { code: 'VALIDATION_FAILED' }));
    } finally {
      setSending(false);
    }
  };

  if (opened) {
    return (
      <>
        <h1 className="page-title">{g('title')}</h1>
        <GrievanceReceipt opened={opened}>
          <a className="button button-secondary" href={paths.home.getHref()}>
            {g('home')}
          </a>
        </GrievanceReceipt>
      </>
    );
  }
  const mobileId = `${id}-mobile`;
  return (
    <form className="step" noValidate onSubmit={(event) => void submit(event)} onFocus={() => setEngaged(true)}>
      <h1 className="page-title">{g('title')}</h1>
      <p className="page-intro">{g('intro')}</p>
      <p className="field-hint">{g('appliedHint')}</p>
      <div className="field">
        <label htmlFor={mobileId} className="field-label">
          {g('mobileLabel')}
        </label>
        <p id={`${mobileId}-hint`} className="field-hint">
          {g('mobileHint')}
        </p>
        <div className="input-group">
          <span className="input-prefix" aria-hidden="true">
            +91
          </span>
          <input
            ref={mobileRef}
            id={mobileId}
            name="mobile"
            className="input input-mobile"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            value={mobile}
            {...fieldAria(mobileId, { hint: true, error: errors.mobile })}
            onChange={(event) => {
              setMobile(mobileFromInput(event.target.value));
              setErrors((now) => ({ ...now, mobile: undefined }));
            }}
          />
        </div>
        <p id={`${mobileId}-error`} className="field-error" aria-live="polite">
          {errors.mobile ? t(`errors.${errors.mobile}` as 'errors.INVALID_PHONE') : ''}
        </p>
      </div>
      <GrievanceTextField
        id={`${id}-text`}
        value={text}
        error={errors.text}
        inputRef={textRef}
        onChange={(value) => {
          setText(value);
          setErrors((now) => ({ ...now, text: undefined }));
        }}
      />
      {failure && <FailureMessage failure={failure} />}
      <button type="submit" className="button button-primary" disabled={sending || captcha.state === 'failed'}>
        {sending ? g('submitting') : g('submit')}
      </button>
      <CaptchaNotice />
    </form>
  );
}
