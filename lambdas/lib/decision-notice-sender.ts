import * as v from 'valibot';
import { notArray } from '../../rules/schema';
import type { OtpChannel } from '../../rules/api';
import { maskPhone } from '../../rules/phone';
import type { DecisionNoticeStore } from '../adapters/decision-notices';
import type { DeliveryStore } from '../adapters/deliveries';
import type { Decision, DecisionMessage } from '../adapters/outbound-queue';
import { STATUS_CHANGED_AT } from '../adapters/review';
import { CARD_SERIAL } from '../adapters/member-cards';
import { DLT_VARIABLE, SmsError, type SmsGateway } from '../adapters/sms';
import type { CardKeys } from './card-keys';
import { SMS_CARD_PAGE_PREFIX } from '../../rules/member-card';
import { type MessageGateway, whatsAppRefusal } from '../adapters/whatsapp';
import type { WhatsAppRecipients } from '../adapters/whatsapp-recipients';
import type { OtpChannelMode, SmsTemplates, WhatsappDecisionTemplates } from './env';
import { logger } from './logger';
import { countBy } from './metrics';
import { providerFailureFields } from './provider-failure';

// The decision notice of one queued message (docs/MESSAGING.md, "Decision notices"),
// for the outbound consumer: it goes only while the application still has that status,
// set at that time, once the quiet period has passed; its claim in the deliveries table
// makes it go at most once per application and decision; it goes by the stage's channels
// in the applicant's language. What is not a failure (the quiet period, a claim another
// consumer holds) is thrown as PutBack, for the consumer to put the message back.

/** A claim's lease: longer than the consumer's timeout (30 s), so a live sender never loses it. */
const NOTICE_LEASE_SECONDS = 120;

/** The stage's messaging settings that decide how a decision notice goes. */
export interface DecisionSettings {
  /** OTP_CHANNELS: the stage's channels serve the notices too. */
  readonly channels: OtpChannelMode;
  /** DECISION_QUIET_SECONDS. */
  readonly quietSeconds: number;
  /** WHATSAPP_DECISION_TEMPLATES; undefined: decisions go by SMS only. */
  readonly whatsappTemplates: WhatsappDecisionTemplates | undefined;
  /** SMS_TEMPLATES (approved, rejected); undefined: no SMS. */
  readonly smsTemplates: SmsTemplates | undefined;
}

/** What decision notices need; without it a decision message fails (and ends in the dead-letter queue). */
export interface DecisionDeps {
  readonly settings: DecisionSettings;
  readonly whatsapp: () => Promise<Pick<MessageGateway, 'sendTemplate'>>;
  readonly sms: () => Promise<Pick<SmsGateway, 'send'>>;
  readonly notices: DecisionNoticeStore;
  /** The unique WhatsApp recipients of the last 24 hours (the messaging tier's count). */
  readonly recipients?: Pick<WhatsAppRecipients, 'record'>;
  /** The card keys (issue 20): an approval's notice carries the member's card link. */
  readonly cardKeys?: () => Promise<Pick<CardKeys, 'linkOf'>>;
}

export type PutBackReason = 'quiet-period' | 'claim-in-progress';

/**
 * Thrown inside the idempotent delivery so that Powertools records nothing as done (it
 * deletes its in-progress record), and caught outside it: the message goes back to the
 * queue with this delay, and the original is reported processed.
 */
export class PutBack extends Error {
  override name = 'PutBack';
  constructor(
    readonly reason: PutBackReason,
    readonly delaySeconds: number,
  ) {
    super(`Put back: ${reason}`);
  }
}

/** Neither WhatsApp decision templates nor SMS decision templates for this stage's channels. */
export class DecisionNotConfiguredError extends Error {
  override name = 'DecisionNotConfiguredError';
}

/** A provider's throughput or rate-limit refusal: WhatsApp 130429, 131048, 131056, 80007, 4; SMS throttling. */
export function isRateLimited(error: unknown): boolean {
  return whatsAppRefusal(error) === 'rate-limit' || (error instanceof SmsError && error.failure === 'throttled');
}

/** The channels a decision notice tries, in order. */
export function decisionChannels(settings: DecisionSettings, decision: Decision): OtpChannel[] {
  const whatsapp = settings.channels !== 'sms' && settings.whatsappTemplates !== undefined;
  // Without WhatsApp decision templates, decisions go by SMS where SMS templates exist.
  const sms = settings.smsTemplates?.[decision] !== undefined && (settings.channels !== 'whatsapp' || !whatsapp);
  return [...(whatsapp ? (['whatsapp'] as const) : []), ...(sms ? (['sms'] as const) : [])];
}

/** What a decision notice needs from the application. */
const decisionApplicationSchema = v.object({
  phone_number: v.pipe(v.string(), v.regex(/^\d{12}$/)),
  name: v.pipe(v.string(), v.minLength(1)),
  application_status: v.string(),
  [STATUS_CHANGED_AT]: v.optional(v.string()),
  updated_at: v.optional(v.string()),
  language: v.optional(v.picklist(['en', 'ta'])),
  consent: v.optional(notArray(v.object({ language: v.optional(v.picklist(['en', 'ta'])) }))),
  [CARD_SERIAL]: v.optional(v.string()),
});
type DecisionApplication = v.InferOutput<typeof decisionApplicationSchema>;

/** A DLT variable holds at most 30 characters; the templates' variable is the applicant's name. */
const shortName = (name: string) => name.trim().slice(0, 30).trim() || 'Applicant';

/**
 * The template's variables in order: the serial and the MAC after the card page's path
 * (rules/member-card.ts SMS_CARD_PAGE_PREFIX: the URL is the registered template's own,
 * as DLT requires, docs/MESSAGING.md), the name elsewhere. A variable holds at most 30
 * characters, so the serial and the MAC are two: `…/card?#{#var#}.{#var#}`.
 */
export function smsVariables(text: string, name: string, link: string | undefined): string[] {
  const [serial = '', mac = ''] = link?.split('.') ?? [];
  const before = text.split(DLT_VARIABLE).slice(0, -1);
  return before.map((part, i) => {
    if (part.endsWith(SMS_CARD_PAGE_PREFIX)) return serial;
    if (part === '.' && before[i - 1]?.endsWith(SMS_CARD_PAGE_PREFIX)) return mac;
    return name;
  });
}

/** What one decision message came to (kept in the idempotency record: no personal data). */
export type DecisionResult =
  | { kind: 'decision'; decision: Decision; channel: OtpChannel; messageId: string }
  /** Superseded: the application's status or its time changed since; already sent: its claim holds a message. */
  | { kind: 'decision'; skipped: 'superseded' | 'already-sent' };

/** Best effort after a send the provider accepted: a failure here must not make the message retry (and send again). */
async function afterAccepted(
  what: string,
  fields: Record<string, unknown>,
  write: () => Promise<unknown>,
): Promise<void> {
  try {
    await write();
  } catch (error) {
    logger.error(`Could not record ${what} after the send`, { ...fields, ...providerFailureFields(error) });
  }
}

export interface DecisionSharedDeps {
  /** Accepted messages, for their delivery status. */
  readonly deliveries?: Pick<DeliveryStore, 'recordAccepted'>;
  /** Waits for the channel's pacer. */
  readonly pace: (channel: OtpChannel) => Promise<void>;
  readonly clock: () => Date;
}

/**
 * An approval's card link (`<serial>.<mac>`), derived again from the serial at every try:
 * a retried notice carries the same link. Never logged.
 */
async function cardLinkOf(decisions: DecisionDeps, application: DecisionApplication, decision: Decision) {
  const serial = application[CARD_SERIAL];
  if (decision !== 'approved' || !serial || !decisions.cardKeys) return undefined;
  return (await decisions.cardKeys()).linkOf(serial);
}

/** Sends the notice of a decision message for the application `item` (read consistently). */
export function makeDecisionNoticeSender(decisions: DecisionDeps, shared: DecisionSharedDeps) {
  const sendBy = async (channel: OtpChannel, application: DecisionApplication, decision: Decision): Promise<string> => {
    const language = application.language ?? application.consent?.language ?? 'en';
    const name = shortName(application.name);
    const link = await cardLinkOf(decisions, application, decision);
    await shared.pace(channel);
    if (channel === 'whatsapp') {
      const template = decisions.settings.whatsappTemplates![decision];
      return (await decisions.whatsapp()).sendTemplate(
        application.phone_number,
        template.name,
        template.languages[language],
        [name],
        link,
      );
    }
    const pair = decisions.settings.smsTemplates![decision]!;
    // Tamil where a Tamil template is registered, else English.
    const template = (language === 'ta' ? pair.ta : undefined) ?? pair.en;
    return (await decisions.sms()).send(application.phone_number, template, smsVariables(template.text, name, link));
  };

  /** By the stage's channels in order: the next only when the one before refused for a reason other than its rate. */
  const sendDecision = async (
    applicationId: string,
    application: DecisionApplication,
    decision: Decision,
  ): Promise<{ channel: OtpChannel; messageId: string }> => {
    const plan = decisionChannels(decisions.settings, decision);
    if (plan.length === 0) throw new DecisionNotConfiguredError('No decision template for the stage’s channels');
    for (const [i, channel] of plan.entries()) {
      try {
        return { channel, messageId: await sendBy(channel, application, decision) };
      } catch (error) {
        if (i === plan.length - 1 || isRateLimited(error)) throw error;
        logger.warn('WhatsApp refused a decision notice; sending it by SMS', {
          applicationId,
          refusal: whatsAppRefusal(error),
          ...providerFailureFields(error),
        });
      }
    }
    throw new DecisionNotConfiguredError('No channel left');
  };

  return async (message: DecisionMessage, item: Record<string, unknown>): Promise<DecisionResult> => {
    const { kind, applicationId, decision, changedAt } = message;
    const application = v.parse(decisionApplicationSchema, item);
    const lastChange = application[STATUS_CHANGED_AT] ?? application.updated_at;
    if (application.application_status !== decision || lastChange !== changedAt) {
      // Set back (or to something else) since, or set again later: that later change has its own message.
      logger.info('Decision notice superseded; nothing to send', { applicationId, decision });
      return { kind, skipped: 'superseded' };
    }
    const now = shared.clock();
    const waitMs = Date.parse(changedAt) + decisions.settings.quietSeconds * 1000 - now.getTime();
    if (waitMs > 0) throw new PutBack('quiet-period', Math.ceil(waitMs / 1000));

    const claim = await decisions.notices.claim(applicationId, decision, now, NOTICE_LEASE_SECONDS);
    if (claim.kind === 'sent') {
      logger.info('Decision notice sent before; nothing to send', {
        applicationId,
        decision,
        channel: claim.notice.channel,
      });
      return { kind, skipped: 'already-sent' };
    }
    if (claim.kind === 'in-progress') throw new PutBack('claim-in-progress', claim.retryAfterSeconds);

    let sent: { channel: OtpChannel; messageId: string };
    try {
      sent = await sendDecision(applicationId, application, decision);
    } catch (error) {
      // A claim without a message id is not a sent notice: give it up so that the retry may send.
      await decisions.notices.release(applicationId, decision, claim.token).catch((releaseError: unknown) =>
        logger.warn('Could not release the notice claim; it expires with its lease', {
          applicationId,
          decision,
          ...providerFailureFields(releaseError),
        }),
      );
      throw error;
    }
    const { channel, messageId } = sent;
    const sentAt = shared.clock();
    const fields = { applicationId, decision, channel };
    const recipients = decisions.recipients;
    // Independent writes, at once: the claim's message id, the accepted message, the tier's count.
    await Promise.all([
      afterAccepted('the notice claim', fields, async () => {
        const done = await decisions.notices.complete(applicationId, decision, claim.token, {
          channel,
          messageId,
          sentAt: sentAt.toISOString(),
        });
        if (!done) throw new Error('Lease lost');
      }),
      afterAccepted('the accepted message', fields, async () =>
        shared.deliveries?.recordAccepted(
          { channel, messageId },
          { purpose: 'decision', applicationId, decision },
          sentAt,
        ),
      ),
      channel === 'whatsapp' && recipients
        ? afterAccepted('the WhatsApp recipient', fields, () => recipients.record(application.phone_number, sentAt))
        : undefined,
    ]);
    countBy('DecisionNoticeSent', 'channel', channel);
    countBy('MessageAccepted', 'channel', channel);
    logger.info('Decision notice sent', { ...fields, phone: maskPhone(application.phone_number) });
    return { kind, decision, channel, messageId };
  };
}
