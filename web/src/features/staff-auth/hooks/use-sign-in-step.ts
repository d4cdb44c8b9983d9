import { type FormEvent, useState } from 'react';
import type { SignInOutcome } from '../api/sign-in';
import { type AuthErrorKey, type AuthStep, authErrorKey } from '../utils/auth-error';

export interface SignInStep {
  readonly submitting: boolean;
  /** The translated message key of the last failure of this step, if any. */
  readonly failure: AuthErrorKey | null;
  /** The form's onSubmit: checks the fields, then calls the auth service once at a time. */
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * One step of the sign-in (email and password, a new password, the authenticator's code):
 * `prepare` checks the step's fields (and shows what is wrong) and gives the call to make,
 * or nothing when a field is wrong; the outcome goes to `onNextStep`, a failure becomes the
 * step's message (`onFailure` first, e.g. to empty a wrong code).
 */
export function useSignInStep(
  step: AuthStep,
  prepare: () => (() => Promise<SignInOutcome>) | undefined,
  onNextStep?: (outcome: SignInOutcome) => void,
  onFailure?: () => void,
): SignInStep {
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<AuthErrorKey | null>(null);

  const submit = async () => {
    setFailure(null);
    const call = prepare();
    if (!call) return;
    setSubmitting(true);
    try {
      const outcome = await call();
      setSubmitting(false);
      onNextStep?.(outcome);
    } catch (error) {
      setSubmitting(false);
      onFailure?.();
      setFailure(authErrorKey(error, step));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!submitting) void submit();
  };

  return { submitting, failure, onSubmit };
}
