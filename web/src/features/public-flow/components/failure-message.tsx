import type { TFunction } from 'i18next';
import { useTranslation } from '../../../i18n/use-translation';
import { alreadyRegisteredText } from '../../../i18n/both-languages';
import { errorText } from '../../../i18n/error-text';
import { type Language, languages } from '../../../i18n/language';
import { ApiError } from '../../../lib/api-client';

/** What went wrong, as far as the visitor needs to know. */
export interface Failure {
  readonly code: string;
  readonly retryAfterSeconds?: number;
  readonly attemptsLeft?: number;
  /** The stage has SMS: a failed WhatsApp send can still reach the visitor that way. */
  readonly smsAvailable?: boolean;
}

/** The code and what helps the visitor; never the server's or the provider's own text. */
export function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { code: 'INTERNAL' };
  const { retryAfterSeconds, attemptsLeft, smsAvailable } = error.details;
  return {
    code: error.code,
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    ...(attemptsLeft !== undefined && { attemptsLeft }),
    ...(smsAvailable && { smsAvailable }),
  };
}

/** Faults only an operator can fix: the visitor is told to try later, not about settings. */
const operatorFaults = new Set([
  'WHATSAPP_NOT_CONFIGURED',
  'WHATSAPP_INVALID_PHONE_NUMBER_ID',
  'SMS_NOT_CONFIGURED',
  'OTP_STORE_FAILED',
]);

/** "Please try again in 45 seconds." / "... in 3 minutes." */
function retryText(t: TFunction, seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 120) return t('retry.seconds', { count: whole });
  return t('retry.minutes', { count: Math.ceil(whole / 60) });
}

function failureText(t: TFunction, failure: Failure): string {
  if (failure.code === 'RATE_LIMITED' && failure.retryAfterSeconds !== undefined) {
    return `${t('retry.tooMany')} ${retryText(t, failure.retryAfterSeconds)}`;
  }
  if (failure.code === 'SERVICE_BUSY') return t('busy.failed'); // The page tried again; errors.SERVICE_BUSY says it is trying.
  if (operatorFaults.has(failure.code)) return t('sendFailure.unavailable');
  if (failure.code === 'WHATSAPP_UNDELIVERABLE' && !failure.smsAvailable) return t('sendFailure.noWhatsapp');
  const text = errorText(t, failure.code);
  if (failure.code === 'OTP_INVALID' && failure.attemptsLeft !== undefined && failure.attemptsLeft > 0) {
    return `${text} ${t('step1.attemptsLeft', { count: failure.attemptsLeft })}`;
  }
  return text;
}

/** What to do next, when the message alone does not say it. */
function helpTexts(t: TFunction, failure: Failure): string[] {
  const help: string[] = [];
  if (failure.code === 'WHATSAPP_SEND_FAILED') help.push(t('sendFailure.whatsappHelp'));
  if (failure.smsAvailable && failure.code.startsWith('WHATSAPP_') && !operatorFaults.has(failure.code)) {
    help.push(t('sendFailure.smsPossible'));
  }
  return help;
}

/** Shown in both languages, the visitor's first (spec: the already-registered message is bilingual). */
const bilingualTexts: Record<string, Record<Language, string>> = { ALREADY_REGISTERED: alreadyRegisteredText };

/** An error alert, announced when it appears. */
export function FailureMessage({ failure, id }: { failure: Failure; id?: string }) {
  const { t, i18n } = useTranslation();
  const current: Language = i18n.resolvedLanguage === 'ta' ? 'ta' : 'en';
  const bilingual = bilingualTexts[failure.code];
  if (bilingual) {
    const order = [current, ...languages.filter((l) => l !== current)];
    return (
      <div id={id} className="alert alert-error" role="alert" data-code={failure.code}>
        {order.map((language) => (
          <p key={language} lang={language} className="alert-line">
            {bilingual[language]}
          </p>
        ))}
      </div>
    );
  }
  return (
    <div id={id} className="alert alert-error" role="alert" data-code={failure.code}>
      <p className="alert-line">{failureText(t, failure)}</p>
      {helpTexts(t, failure).map((text) => (
        <p key={text} className="alert-line">
          {text}
        </p>
      ))}
    </div>
  );
}
