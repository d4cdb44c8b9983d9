import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessages } from '../../../../../rules/errors';
import { alreadyRegisteredText } from '../../../i18n/both-languages';
import { errorText } from '../../../i18n/error-text';
import { type Language, languages } from '../../../i18n/language';
import { ApiError } from '../../../lib/api-client';

/** What went wrong, as far as the visitor needs to know. */
export interface Failure {
  readonly code: string;
  readonly retryAfterSeconds?: number;
  readonly attemptsLeft?: number;
  /** The WhatsApp provider's own message, when it refused a send (spec 8). */
  readonly providerMessage?: string;
}

export function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { code: 'INTERNAL' };
  const { retryAfterSeconds, attemptsLeft } = error.details;
  const providerMessage =
    error.code === 'WHATSAPP_SEND_FAILED' && error.message !== errorMessages.WHATSAPP_SEND_FAILED
      ? error.message
      : undefined;
  return {
    code: error.code,
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    ...(attemptsLeft !== undefined && { attemptsLeft }),
    ...(providerMessage && { providerMessage }),
  };
}

/** "Please try again in 45 seconds." / "... in 3 minutes." */
export function retryText(t: TFunction, seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 120) return t('retry.seconds', { count: whole });
  return t('retry.minutes', { count: Math.ceil(whole / 60) });
}

export function failureText(t: TFunction, failure: Failure): string {
  if (failure.code === 'RATE_LIMITED' && failure.retryAfterSeconds !== undefined) {
    return `${t('retry.tooMany')} ${retryText(t, failure.retryAfterSeconds)}`;
  }
  const text = errorText(t, failure.code);
  if (failure.code === 'OTP_INVALID' && failure.attemptsLeft !== undefined && failure.attemptsLeft > 0) {
    return `${text} ${t('step1.attemptsLeft', { count: failure.attemptsLeft })}`;
  }
  return text;
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
      {failure.providerMessage && (
        <p className="alert-detail" lang="en">
          {failure.providerMessage}
        </p>
      )}
    </div>
  );
}
