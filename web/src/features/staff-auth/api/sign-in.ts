export interface SignInCredentials {
  readonly email: string;
  readonly password: string;
}

/**
 * SEAM: staff sign-in is not built yet. The staff-area issue replaces this body with
 * Amplify's signIn against Cognito (USER_PASSWORD_AUTH in local mode) and the
 * new-password challenge. Until then every attempt fails honestly.
 */
export function signIn(_credentials: SignInCredentials): Promise<void> {
  return Promise.reject(new Error('Sign-in is not available yet'));
}
