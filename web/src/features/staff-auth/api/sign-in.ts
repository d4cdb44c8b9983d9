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
  | { readonly kind: 'totpSetup'; readonly setup: TotpSetup }
  | { readonly kind: 'unsupported'; readonly step: string };

/** What enrolment shows: the secret as text, and the otpauth:// URI its QR code carries. */
export interface TotpSetup {
  readonly secret: string;
  /** `issuer` is the name the authenticator app lists the account under. */
  uri(issuer: string): string;
}

function outcomeOf(output: SignInOutput | ConfirmSignInOutput): SignInOutcome {
  if (output.isSignedIn) return { kind: 'done' };
  const step = output.nextStep.signInStep;
  if (step === 'DONE') return { kind: 'done' };
  // An admin-created user's first sign-in: the temporary password must be replaced.
  if (step === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return { kind: 'newPassword' };
  // The pool requires TOTP MFA: an enrolled staff member gives the app's code...
  if (step === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { kind: 'totp' };
  // ...and one not yet enrolled (first sign-in, or after an admin reset) enrols first.
  // Amplify has already asked Cognito for the secret (AssociateSoftwareToken).
  if (step === 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') {
    const details = output.nextStep.totpSetupDetails;
    return { kind: 'totpSetup', setup: { secret: details.sharedSecret, uri: (issuer) => details.getSetupUri(issuer).href } };
  }
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

/** Answers the pending challenge: the new password, or the authenticator's code (also enrolment's first code). */
export async function answerChallenge(response: string): Promise<SignInOutcome> {
  return outcomeOf(await confirmSignIn({ challengeResponse: response }));
}
