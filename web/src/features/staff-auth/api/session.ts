import { fetchAuthSession, getCurrentUser, signOut } from 'aws-amplify/auth';

/** The signed-in user from the stored session, or undefined when nobody is signed in. */
export async function readCurrentUser(): Promise<{ readonly userId: string } | undefined> {
  try {
    const user = await getCurrentUser();
    return { userId: user.userId };
  } catch {
    return undefined;
  }
}

/** The current ID token (Amplify refreshes it when it has expired). */
export async function currentIdToken(): Promise<string> {
  const session = await fetchAuthSession();
  const token = session.tokens?.idToken?.toString();
  if (!token) throw new Error('No ID token: not signed in');
  return token;
}

export async function signOutStaff(): Promise<void> {
  await signOut();
}
