import { stackNames } from './stack-names';

// What a stage still lacks before it can serve visitors, in the part both sides read: the
// health function names the provider secret's empty fields, the preflight and the synth
// (lib/placeholders.ts) grade the stage's settings with the same findings. In contracts/
// because a Lambda bundle must not reach into the CDK app's lib/ (eslint.config.js).

/** `blocking`: visitors would not be served (or nobody would hear of it); `warning`: a part degrades. */
export type FindingSeverity = 'blocking' | 'warning';

export interface ConfigFinding {
  /** The setting or secret field, as the operator edits it: `captcha.siteKey`, `secret:provider.recaptchaSecret`. */
  readonly id: string;
  readonly severity: FindingSeverity;
  /** What is wrong, in one sentence. */
  readonly problem: string;
  /** What a visitor or operator would suffer from it. */
  readonly why: string;
  /** The exact command or console step that fixes it. */
  readonly fix: string;
}

/** A value nobody has filled in yet: empty, or still carrying the word PLACEHOLDER. */
export const isPlaceholder = (value: string | undefined): boolean =>
  value === undefined || value.trim() === '' || /placeholder/i.test(value);

/** What the channel checks read of a stage: its OTP channels (lib/stages.ts `messaging.otpChannels`). */
type ChannelsOf = { readonly messaging: { readonly otpChannels: string } };

/** The provider secret's fields that a stage needs filled (lambdas/adapters/secrets.ts, `providerSecretsSchema`). */
type CheckedSecretField =
  | 'recaptchaSecret'
  | 'whatsappToken'
  | 'whatsappPhoneNumberId'
  | 'whatsappAppSecret'
  | 'whatsappVerifyToken'
  | 'webhookUrl';

/** The stage sends codes or welcomes by WhatsApp. */
export const usesWhatsapp = (config: ChannelsOf): boolean => config.messaging.otpChannels !== 'sms';
/** The stage sends codes (or notices) by SMS. */
export const usesSms = (config: ChannelsOf): boolean => config.messaging.otpChannels !== 'whatsapp';

/** Findings of the provider secret's values (never printed: only which field is empty). */
export function providerSecretFindings(
  secret: Readonly<Record<CheckedSecretField, string>>,
  config: { readonly stage: string } & ChannelsOf,
): ConfigFinding[] {
  const fix = (field: string) =>
    `Put ${field} into the provider secret: the ProviderSecretArn output of ${stackNames(config).data} (docs/RUNBOOK.md, "Secrets: set and rotate").`;
  const fields: Array<{ field: CheckedSecretField; severity: FindingSeverity; why: string; when: boolean }> = [
    {
      field: 'recaptchaSecret',
      severity: 'blocking',
      why: 'Without it no captcha can be checked: every code request answers CAPTCHA_FAILED.',
      when: true,
    },
    {
      field: 'whatsappToken',
      severity: 'blocking',
      why: 'Without it WhatsApp refuses every send: code requests answer WHATSAPP_NOT_CONFIGURED (or fall back to SMS).',
      when: usesWhatsapp(config),
    },
    {
      field: 'whatsappPhoneNumberId',
      severity: 'blocking',
      why: 'Without it there is no number to send from: code requests answer WHATSAPP_NOT_CONFIGURED (or fall back to SMS).',
      when: usesWhatsapp(config),
    },
    {
      field: 'whatsappAppSecret',
      severity: 'warning',
      why: "Meta's delivery reports cannot be verified and are refused: the page never learns a code was delivered, and the delivery-rate alarm reads nothing.",
      when: usesWhatsapp(config),
    },
    {
      field: 'whatsappVerifyToken',
      severity: 'warning',
      why: "Meta's webhook subscription cannot be confirmed, so no delivery report arrives.",
      when: usesWhatsapp(config),
    },
    {
      field: 'webhookUrl',
      severity: 'warning',
      why: 'Applications are not posted to the automation webhook: each waits in the queue, then in the dead-letter queue (the dead-letters alarm fires).',
      when: true,
    },
  ];
  return fields
    .filter(({ field, when }) => when && isPlaceholder(secret[field]))
    .map(({ field, severity, why }) => ({
      id: `secret:provider.${field}`,
      severity,
      problem: `${field} is empty (or a placeholder) in the provider secret of ${config.stage}.`,
      why,
      fix: fix(field),
    }));
}
