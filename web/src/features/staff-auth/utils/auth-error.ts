/** Cognito's own message when it gives one (spec 8: "Auth service message, or 'Login failed'"). */
export function authErrorMessage(error: unknown): string | undefined {
  return error instanceof Error && error.message.trim() ? error.message : undefined;
}
