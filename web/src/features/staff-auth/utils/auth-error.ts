/** Which step of the sign-in failed: the same service error means different things in each. */
export type AuthStep = 'signIn' | 'newPassword' | 'totp';

/** Keys of the staff namespace that a failed sign-in step may show. */
export type AuthErrorKey =
  | 'login.loginFailed'
  | 'login.wrongCredentials'
  | 'login.tooManyAttempts'
  | 'login.network'
  | 'login.sessionExpired'
  | 'newPassword.policyFailed'
  | 'newPassword.failed'
  | 'totp.wrongCode'
  | 'totp.failed';

const nameOf = (error: unknown): string => (error instanceof Error ? error.name : '');

/**
 * The auth service's failure as one of our translated messages. Its own text is English
 * only, and it tells an unknown email ("User not authorized", UserNotFoundException) from
 * a wrong password ("Invalid password", "Incorrect username or password."): shown as it
 * is, it would tell anyone which staff emails exist. So both get the same message, in the
 * screen's language, and the service's words never reach the screen.
 */
export function authErrorKey(error: unknown, step: AuthStep): AuthErrorKey {
  const name = nameOf(error);
  if (['TooManyRequestsException', 'LimitExceededException', 'TooManyFailedAttemptsException'].includes(name)) {
    return 'login.tooManyAttempts';
  }
  if (name === 'NetworkError' || (error instanceof TypeError && /fetch|network/i.test(error.message))) return 'login.network';
  if (step === 'signIn') {
    return ['NotAuthorizedException', 'UserNotFoundException', 'InvalidPasswordException', 'PasswordResetRequiredException'].includes(
      name,
    )
      ? 'login.wrongCredentials'
      : 'login.loginFailed';
  }
  // A challenge answered after its session ran out (Cognito gives three minutes).
  if (name === 'NotAuthorizedException') return 'login.sessionExpired';
  if (step === 'newPassword') {
    return name === 'InvalidPasswordException' || name === 'InvalidParameterException'
      ? 'newPassword.policyFailed'
      : 'newPassword.failed';
  }
  // EnableSoftwareTokenMFAException: enrolment's first code did not match the new secret.
  return ['CodeMismatchException', 'ExpiredCodeException', 'EnableSoftwareTokenMFAException'].includes(name)
    ? 'totp.wrongCode'
    : 'totp.failed';
}
