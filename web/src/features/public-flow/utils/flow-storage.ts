import { z } from 'zod';
import { educations, genders, occupations } from '../../../../../rules/application';
import { emptyForm } from './application-form';

// Nothing is lost on a reload or a dropped connection: the step, the typed number, the
// form and a still-valid verification are kept in sessionStorage (this tab only, gone
// when it closes). The code itself is never stored.

export const FLOW_STORAGE_KEY = 'membership_flow';

const formSchema = z.object({
  alternate_phone_number: z.string().max(10),
  name: z.string().max(1000),
  email: z.string().max(1000),
  gender: z.enum([...genders, '']),
  date_of_birth: z.string().max(20),
  revenue_district: z.string().max(200),
  assembly_constituency: z.string().max(200),
  education: z.enum([...educations, '']),
  occupation: z.enum([...occupations, '']),
  is_already_member: z.enum(['yes', 'no', '']),
  motivation: z.string().max(5000),
  accept_terms: z.boolean(),
});

const snapshotSchema = z.object({
  step: z.enum(['mobile', 'code', 'form']),
  mobile: z.string().regex(/^\d{0,10}$/),
  /** The code was sent: to which number, and when another may be asked for (epoch ms). */
  otp: z.object({ sentTo: z.string(), resendAt: z.number() }).optional(),
  verification: z.object({ token: z.string().min(1), expiresAt: z.string(), mobile: z.string() }).optional(),
  form: formSchema,
});
export type FlowSnapshot = z.infer<typeof snapshotSchema>;
export type Verification = NonNullable<FlowSnapshot['verification']>;

export const initialSnapshot: FlowSnapshot = { step: 'mobile', mobile: '', form: emptyForm };

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
    parsed = snapshotSchema.safeParse(JSON.parse(raw));
  } catch {
    return { snapshot: initialSnapshot, expired: false };
  }
  if (!parsed.success) return { snapshot: initialSnapshot, expired: false };
  const snapshot: FlowSnapshot = { ...parsed.data, form: { ...emptyForm, ...parsed.data.form } };
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
