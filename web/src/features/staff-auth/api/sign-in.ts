import { confirmSignIn, type ConfirmSignInOutput, signIn, type SignInOutput } from 'aws-amplify/auth';

export interface SignInCredentials {
  readonly email: string;
  readonly password: string;
}

/** Where a sign-in stands after a call: signed in, or the next thing Cognito asks for. */
export type SignInOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'newPassword' }
  | { readonly kind: 'totp' }
  | { readonly kind: 'unsupported'; readonly step: string };

function outcomeOf(output: SignInOutput | ConfirmSignInOutput): SignInOutcome {
  if (output.isSignedIn) return { kind: 'done' };
  const step = output.nextStep.signInStep;
  if (step === 'DONE') return { kind: 'done' };
  // An admin-created user's first sign-in: the temporary password must be replaced.
  if (step === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return { kind: 'newPassword' };
  // The pool allows optional TOTP MFA: a staff member who enrolled an authenticator.
  if (step === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { kind: 'totp' };
  return { kind: 'unsupported', step };
}

/** Email and password; the gate learns of success from Amplify's Hub, not from here. */
export async function signInStaff(
  credentials: SignInCredentials,
  authFlowType: 'USER_PASSWORD_AUTH' | 'USER_SRP_AUTH',
): Promise<SignInOutcome> {
  const output = await signIn({
    username: credentials.email,
    password: credentials.password,
    options: { authFlowType },
  });
  return outcomeOf(output);
}

/** Answers the pending challenge: the new password, or the authenticator's code. */
export async function answerChallenge(response: string): Promise<SignInOutcome> {
  return outcomeOf(await confirmSignIn({ challengeResponse: response }));
}
