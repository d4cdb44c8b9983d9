import { createContext, useContext } from 'react';
import { ApiError, apiRequest, type ResponseSchema } from './api-client';
import { scopedDistricts } from './staff-format';

// The signed-in staff member, as the staff features see it. The sign-in feature
// provides it; the dashboard and the reports only consume it (features do not import
// each other). Imported by the /admin chunk only.

export type { StaffRole } from '../../../rules/staff-scope';
import type { StaffRole } from '../../../rules/staff-scope';

export interface StaffSession {
  readonly email: string;
  readonly role: StaffRole;
  /** Their districts (ids); none: every district. The server applies the scope; the SPA shows it. */
  readonly districts: readonly string[];
  /** A current Cognito ID token (refreshed when needed): it carries email and cognito:groups. */
  readonly getIdToken: () => Promise<string>;
  readonly signOut: () => Promise<void>;
}

export const StaffSessionContext = createContext<StaffSession | null>(null);

/**
 * A scoped user's districts, in the data file's order (undefined: every district): the
 * filters offer only these (the server refuses the rest anyway).
 */
export function useScopedDistricts() {
  return scopedDistricts(useStaffSession().districts);
}

export function useStaffSession(): StaffSession {
  const session = useContext(StaffSessionContext);
  if (!session) throw new Error('useStaffSession outside the staff area');
  return session;
}

interface StaffRequestOptions<T> {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  /** Any Standard Schema (valibot's today): the staff area is not tied to one library. */
  readonly schema: ResponseSchema<T>;
  readonly signal?: AbortSignal;
}

/** An API call with the session's ID token; a session without one fails as UNAUTHORIZED. */
export async function staffRequest<T>(
  getIdToken: () => Promise<string>,
  path: string,
  options: StaffRequestOptions<T>,
): Promise<T> {
  let token: string;
  try {
    token = await getIdToken();
  } catch {
    throw new ApiError('UNAUTHORIZED', 401, 'Not signed in');
  }
  return apiRequest(path, { ...options, headers: { authorization: `Bearer ${token}` } });
}
