import * as v from 'valibot';
import { educations, genders, occupations } from '../../../../../rules/application-values';
import { emptyForm } from './application-form-values';

// Nothing is lost on a reload or a dropped connection: the step, the typed number, the
// form and a still-valid verification are kept in sessionStorage (this tab only, gone
// when it closes). The code itself is never stored. Checked with valibot: this runs on
// the first view (see rules/api.ts).

export const FLOW_STORAGE_KEY = 'membership_flow';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

const formSchema = v.object({
  alternate_phone_number: text(10),
  name: text(1000),
  email: text(1000),
  gender: v.picklist([...genders, '']),
  date_of_birth: text(20),
  revenue_district: text(200),
  assembly_constituency: text(200),
  education: v.picklist([...educations, '']),
  occupation: v.picklist([...occupations, '']),
  is_already_member: v.picklist(['yes', 'no', '']),
  motivation: text(5000),
  accept_terms: v.boolean(),
});

const snapshotSchema = v.object({
  /**
   * 'done': the application went; a reload shows the thank-you again (nothing else is kept).
   * 'registered': the right code came from a number that has applied already; a reload says so again.
   */
  step: v.picklist(['mobile', 'code', 'form', 'done', 'registered']),
  mobile: v.pipe(v.string(), v.regex(/^\d{0,10}$/)),
  /** The code was sent: to which number, when another may be asked for (epoch ms), and how it went. */
  otp: v.optional(
    v.object({
      sentTo: v.string(),
      resendAt: v.number(),
      channel: v.optional(v.picklist(['whatsapp', 'sms']), 'whatsapp'),
      /** WhatsApp refused it and the code went by SMS at once. */
      fellBack: v.optional(v.boolean(), false),
      /** The visitor asked for SMS instead ("Didn't get it? Send by SMS"). */
      switched: v.optional(v.boolean(), false),
      /** For POST /api/otp/status and a switch to SMS. */
      handle: v.optional(v.string()),
      /** When the code runs out (epoch ms): the status is not asked after. */
      expiresAt: v.optional(v.number()),
      /** When to ask the server whether SMS may be offered (epoch ms); null: never. */
      smsOfferAt: v.optional(v.nullable(v.number()), null),
      /** The code no longer works (too many wrong guesses, expired): why, as the server said it. */
      voided: v.optional(v.picklist(['OTP_TOO_MANY_ATTEMPTS', 'OTP_EXPIRED', 'OTP_NOT_FOUND'])),
    }),
  ),
  verification: v.optional(
    v.object({
      token: v.pipe(v.string(), v.minLength(1)),
      expiresAt: v.string(),
      mobile: v.string(),
      /** How the code reached the number: the form says "verified WhatsApp number" only for WhatsApp. */
      channel: v.optional(v.picklist(['whatsapp', 'sms'])),
    }),
  ),
  form: formSchema,
});
export type FlowSnapshot = v.InferOutput<typeof snapshotSchema>;
export type Verification = NonNullable<FlowSnapshot['verification']>;
export type OtpSnapshot = NonNullable<FlowSnapshot['otp']>;
export type VoidReason = NonNullable<OtpSnapshot['voided']>;

const voidReasons: readonly string[] = ['OTP_TOO_MANY_ATTEMPTS', 'OTP_EXPIRED', 'OTP_NOT_FOUND'] satisfies VoidReason[];
/** The server's answers after which the code cannot work any more, whatever is typed. */
export function isVoidReason(code: string): code is VoidReason {
  return voidReasons.includes(code);
}

/**
 * The code already sent to this number is still worth going back to: it still works, or it
 * is void but no new one may be sent yet (the code step says when).
 */
export function isResumable(otp: OtpSnapshot, now: number): boolean {
  const alive = !otp.voided && (otp.expiresAt === undefined || otp.expiresAt > now);
  return alive || otp.resendAt > now;
}

/** What the code step keeps of POST /api/otp/request's answer, times made absolute. */
export function otpSnapshotOf(
  sent: {
    sentTo: string;
    channel: 'whatsapp' | 'sms';
    fellBack: boolean;
    deliveryHandle: string;
    expiresInSeconds: number;
    resendAfterSeconds: number;
    smsOfferAfterSeconds: number | null;
  },
  now: number,
  switched = false,
): OtpSnapshot {
  return {
    sentTo: sent.sentTo,
    resendAt: now + sent.resendAfterSeconds * 1000,
    channel: sent.channel,
    fellBack: sent.fellBack,
    switched,
    handle: sent.deliveryHandle,
    expiresAt: now + sent.expiresInSeconds * 1000,
    smsOfferAt: sent.smsOfferAfterSeconds === null ? null : now + sent.smsOfferAfterSeconds * 1000,
  };
}

export const initialSnapshot: FlowSnapshot = { step: 'mobile', mobile: '', form: emptyForm };
/** After a submit: the step alone, no number and no answers. */
export const doneSnapshot: FlowSnapshot = { ...initialSnapshot, step: 'done' };
/** The number has applied already: the step alone, as after a submit. */
export const registeredSnapshot: FlowSnapshot = { ...initialSnapshot, step: 'registered' };

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // Blocked storage: the flow still works, it just does not survive a reload.
  }
}

export function isVerificationValid(verification: Verification | undefined, now: Date): verification is Verification {
  if (!verification) return false;
  const expires = Date.parse(verification.expiresAt);
  return Number.isFinite(expires) && expires > now.getTime();
}

export interface Restored {
  readonly snapshot: FlowSnapshot;
  /** The stored verification ran out: back to step 1, what was typed kept. */
  readonly expired: boolean;
}

/** The stored flow, or a fresh one when nothing (valid) is stored. */
export function readFlow(now: Date = new Date()): Restored {
  let raw: string | null | undefined;
  try {
    raw = storage()?.getItem(FLOW_STORAGE_KEY);
  } catch {
    raw = undefined;
  }
  if (!raw) return { snapshot: initialSnapshot, expired: false };
  let parsed;
  try {
    parsed = v.safeParse(snapshotSchema, JSON.parse(raw));
  } catch {
    return { snapshot: initialSnapshot, expired: false };
  }
  if (!parsed.success) return { snapshot: initialSnapshot, expired: false };
  const snapshot: FlowSnapshot = { ...parsed.output, form: { ...emptyForm, ...parsed.output.form } };
  if (snapshot.step === 'done') return { snapshot: doneSnapshot, expired: false };
  if (snapshot.step === 'form' || snapshot.verification) {
    if (!isVerificationValid(snapshot.verification, now)) {
      const { verification: _expired, otp: _otp, ...rest } = snapshot;
      return { snapshot: { ...rest, step: 'mobile' }, expired: snapshot.step === 'form' };
    }
  }
  if (snapshot.step === 'code' && !snapshot.otp) return { snapshot: { ...snapshot, step: 'mobile' }, expired: false };
  return { snapshot, expired: false };
}

export function writeFlow(snapshot: FlowSnapshot): void {
  try {
    storage()?.setItem(FLOW_STORAGE_KEY, JSON.stringify(snapshot));
  } catch {
    // Full or blocked storage: not fatal.
  }
}

export function clearFlow(): void {
  try {
    storage()?.removeItem(FLOW_STORAGE_KEY);
  } catch {
    // As above.
  }
}
