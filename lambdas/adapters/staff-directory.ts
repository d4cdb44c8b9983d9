import { randomInt } from 'node:crypto';
import type {
  AdminAddUserToGroupRequest,
  AdminCreateUserRequest,
  AdminCreateUserResponse,
  AdminDeleteUserAttributesRequest,
  AdminDeleteUserRequest,
  AdminDisableUserRequest,
  AdminEnableUserRequest,
  AdminGetUserRequest,
  AdminGetUserResponse,
  AdminListGroupsForUserRequest,
  AdminListGroupsForUserResponse,
  AdminListUserAuthEventsRequest,
  AdminListUserAuthEventsResponse,
  AdminRemoveUserFromGroupRequest,
  AdminUpdateUserAttributesRequest,
  AttributeType,
  ListUsersRequest,
  ListUsersResponse,
} from '@aws-sdk/client-cognito-identity-provider';
import type { StaffAssignment, StaffInvite, StaffMember } from '../../rules/staff-admin';
import {
  districtsClaim,
  formatDistrictIds,
  parseDistrictIds,
  type StaffRole,
  staffRoles,
} from '../../rules/staff-scope';
import { awsJson, type AwsJsonCall, type AwsJsonOptions } from '../lib/aws-json';

// The staff pool's users, managed: the one module both the staff-management routes
// (lambdas/handlers/staff-admin.ts) and the operator command (ops/staff.ts) call, so that
// an invitation, a role change or an authenticator reset does the same from either. The
// calls are exactly contracts/staff-directory.ts `staffDirectoryActions`, the function's grant.
// They go over lambdas/lib/aws-json.ts, not the SDK's Cognito client (issue 16's cold
// starts): the SDK's types only describe the wire here, and its dates arrive as epoch seconds.

/** A Cognito user pool caller (AWS JSON 1.1): the region's endpoint, or cognito-local's. */
export function cognitoIdp(options: Omit<AwsJsonOptions, 'service' | 'targetPrefix' | 'jsonVersion'>): AwsJsonCall {
  return awsJson({
    ...options,
    service: 'cognito-idp',
    targetPrefix: 'AWSCognitoIdentityProviderService',
    jsonVersion: '1.1',
  });
}

export interface StaffDirectoryOptions {
  /** cognitoIdp(…): the function's or the operator's credentials. */
  readonly call: AwsJsonCall;
  readonly userPoolId: string;
  /**
   * cognito-local sends no mail: an invitation or a reset sets a temporary password and
   * answers it. In AWS Cognito e-mails it and it is never seen here.
   */
  readonly local: boolean;
}

/** A member as the directory knows them: with the Cognito username the Admin* calls take. */
export interface DirectoryMember extends StaffMember {
  readonly username: string;
}

export interface StaffDirectory {
  list(): Promise<DirectoryMember[]>;
  /** By sub (the routes) or email (the command); undefined when no such user. */
  find(key: { sub: string } | { email: string }): Promise<DirectoryMember | undefined>;
  invite(invite: StaffInvite): Promise<{ member: DirectoryMember; temporaryPassword?: string } | 'exists'>;
  assign(username: string, assignment: StaffAssignment): Promise<void>;
  setEnabled(username: string, enabled: boolean): Promise<void>;
  /**
   * A staff member's authenticator, reset (a lost or replaced phone). The pool requires
   * MFA, and there Cognito cannot take a TOTP authenticator off a user:
   * AdminSetUserMFAPreference "can't turn off TOTP MFA ... when MFA is required" (it
   * answers 200 and changes nothing), and no API deletes the secret. So the user is made
   * again: deleted, then created with the same email, groups, districts and enabled
   * state and a new temporary password. Their `sub` changes: the audit keeps both.
   */
  resetMfa(username: string): Promise<{ temporaryPassword?: string; previousSub: string; sub: string }>;
}

/** A temporary password meeting the pool's policy; Cognito asks for a new one at first sign-in. */
export function temporaryPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-=?@'];
  const all = sets.join('');
  const chars = sets.map((set) => set[randomInt(set.length)]!);
  while (chars.length < 16) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

const attribute = (attributes: readonly AttributeType[] | undefined, name: string) =>
  attributes?.find((a) => a.Name === name)?.Value;

/** The strongest staff group of a user's groups: admin, then coordinator, then viewer. */
const roleOf = (groups: readonly string[]): StaffRole | null => staffRoles.find((r) => groups.includes(r)) ?? null;

const isNamed = (error: unknown, name: string) => (error as { name?: string } | undefined)?.name === name;

/** An answer as the wire carries it: epoch seconds (possibly fractional) where the SDK gives a Date. */
type Wire<T> = T extends Date
  ? number
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** Each call the directory makes: its input and its answer, as the SDK's types describe them. */
interface Operations {
  ListUsers: [ListUsersRequest, ListUsersResponse];
  AdminGetUser: [AdminGetUserRequest, AdminGetUserResponse];
  AdminListGroupsForUser: [AdminListGroupsForUserRequest, AdminListGroupsForUserResponse];
  AdminListUserAuthEvents: [AdminListUserAuthEventsRequest, AdminListUserAuthEventsResponse];
  AdminCreateUser: [AdminCreateUserRequest, AdminCreateUserResponse];
  AdminDeleteUser: [AdminDeleteUserRequest, object];
  AdminAddUserToGroup: [AdminAddUserToGroupRequest, object];
  AdminRemoveUserFromGroup: [AdminRemoveUserFromGroupRequest, object];
  AdminUpdateUserAttributes: [AdminUpdateUserAttributesRequest, object];
  AdminDeleteUserAttributes: [AdminDeleteUserAttributesRequest, object];
  AdminDisableUser: [AdminDisableUserRequest, object];
  AdminEnableUser: [AdminEnableUserRequest, object];
}

/** An epoch-seconds timestamp (as the SDK reads one: a number, or its text) as ISO 8601; null when absent. */
function isoFromEpochSeconds(value: unknown): string | null {
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return null;
  return new Date(Math.round(seconds * 1000)).toISOString();
}

/** The pool and what the directory remembers of it for the container's life. */
interface Pool {
  readonly call: AwsJsonCall;
  readonly userPoolId: string;
  readonly local: boolean;
  /**
   * AdminListUserAuthEvents answers only with the Plus plan's threat protection, and
   * cognito-local has no such call: after one refusal, the last sign-in is null for the
   * container's life rather than one failing call per user.
   */
  readonly state: { authEvents: boolean };
}

const send = <Op extends keyof Operations>(pool: Pool, operation: Op, input: Operations[Op][0]) =>
  pool.call<Wire<Operations[Op][1]>>(operation, input);

async function groupsOf(pool: Pool, username: string): Promise<string[]> {
  const groups: string[] = [];
  let token: string | undefined;
  do {
    const page = await send(pool, 'AdminListGroupsForUser', {
      UserPoolId: pool.userPoolId,
      Username: username,
      NextToken: token,
    });
    groups.push(...(page.Groups ?? []).map((g) => g.GroupName ?? '').filter(Boolean));
    token = page.NextToken;
  } while (token);
  return groups;
}

async function lastSignIn(pool: Pool, username: string): Promise<string | null> {
  if (!pool.state.authEvents) return null;
  try {
    const { AuthEvents } = await send(pool, 'AdminListUserAuthEvents', {
      UserPoolId: pool.userPoolId,
      Username: username,
      MaxResults: 20,
    });
    const signIn = (AuthEvents ?? []).find((e) => e.EventType === 'SignIn' && e.EventResponse === 'Pass');
    return isoFromEpochSeconds(signIn?.CreationDate);
  } catch (error) {
    if (isNamed(error, 'UserNotFoundException')) return null;
    pool.state.authEvents = false;
    return null;
  }
}

/** Everything the list shows of one user: their groups, MFA and last sign-in besides what ListUsers gave. */
async function describe(pool: Pool, username: string): Promise<DirectoryMember> {
  const [user, groups, signedIn] = await Promise.all([
    send(pool, 'AdminGetUser', { UserPoolId: pool.userPoolId, Username: username }),
    groupsOf(pool, username),
    lastSignIn(pool, username),
  ]);
  const mfa =
    (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA') || user.PreferredMfaSetting === 'SOFTWARE_TOKEN_MFA';
  return {
    username: user.Username ?? username,
    sub: attribute(user.UserAttributes, 'sub') ?? user.Username ?? username,
    email: attribute(user.UserAttributes, 'email') ?? username,
    role: roleOf(groups),
    districts: parseDistrictIds(attribute(user.UserAttributes, districtsClaim)) ?? [],
    enabled: user.Enabled ?? true,
    status: user.UserStatus ?? '',
    mfa,
    lastSignIn: signedIn,
  };
}

async function usernames(pool: Pool, filter?: string): Promise<{ username: string; sub: string; email: string }[]> {
  const found: { username: string; sub: string; email: string }[] = [];
  let token: string | undefined;
  do {
    const page = await send(pool, 'ListUsers', { UserPoolId: pool.userPoolId, PaginationToken: token, Filter: filter });
    for (const user of page.Users ?? []) {
      const username = user.Username ?? '';
      found.push({
        username,
        sub: attribute(user.Attributes, 'sub') ?? username,
        email: attribute(user.Attributes, 'email') ?? username,
      });
    }
    token = page.PaginationToken;
  } while (token);
  return found;
}

async function setGroups(pool: Pool, username: string, role: StaffRole): Promise<void> {
  const current = await groupsOf(pool, username);
  if (!current.includes(role)) {
    await send(pool, 'AdminAddUserToGroup', { UserPoolId: pool.userPoolId, Username: username, GroupName: role });
  }
  for (const group of current.filter((g) => g !== role && (staffRoles as readonly string[]).includes(g))) {
    await send(pool, 'AdminRemoveUserFromGroup', { UserPoolId: pool.userPoolId, Username: username, GroupName: group });
  }
}

async function setDistricts(pool: Pool, username: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) {
    await send(pool, 'AdminDeleteUserAttributes', {
      UserPoolId: pool.userPoolId,
      Username: username,
      UserAttributeNames: [districtsClaim],
    });
    return;
  }
  await send(pool, 'AdminUpdateUserAttributes', {
    UserPoolId: pool.userPoolId,
    Username: username,
    UserAttributes: [{ Name: districtsClaim, Value: formatDistrictIds(ids) }],
  });
}

/** Creates the user with their groups and districts; a temporary password locally. */
async function create(pool: Pool, email: string, groups: readonly string[], districts: readonly string[]) {
  const password = pool.local ? temporaryPassword() : undefined;
  await send(pool, 'AdminCreateUser', {
    UserPoolId: pool.userPoolId,
    Username: email,
    UserAttributes: [
      { Name: 'email', Value: email },
      { Name: 'email_verified', Value: 'true' },
      ...(districts.length > 0 ? [{ Name: districtsClaim, Value: formatDistrictIds(districts) }] : []),
    ],
    DesiredDeliveryMediums: ['EMAIL'],
    ...(password && { TemporaryPassword: password, MessageAction: 'SUPPRESS' as const }),
  });
  for (const group of groups) {
    await send(pool, 'AdminAddUserToGroup', { UserPoolId: pool.userPoolId, Username: email, GroupName: group });
  }
  return password;
}

export function makeStaffDirectory({ call, userPoolId, local }: StaffDirectoryOptions): StaffDirectory {
  const pool: Pool = { call, userPoolId, local, state: { authEvents: true } };
  return {
    async list() {
      const users = await usernames(pool);
      const members: DirectoryMember[] = [];
      // One at a time: Cognito's Admin* calls have a low per-pool rate (a staff pool is small).
      for (const user of users) members.push(await describe(pool, user.username));
      return members.sort((a, b) => a.email.localeCompare(b.email));
    },

    async find(key) {
      const wanted = 'sub' in key ? { attr: 'sub', value: key.sub } : { attr: 'email', value: key.email.toLowerCase() };
      if (!/^[\w.@+'-]+$/.test(wanted.value)) return undefined;
      const users = await usernames(pool, `${wanted.attr} = "${wanted.value}"`);
      // cognito-local may not apply every filter: the answer is checked here too.
      const user = users.find((u) => ('sub' in key ? u.sub === key.sub : u.email.toLowerCase() === wanted.value));
      return user && describe(pool, user.username);
    },

    async invite({ email, role, districts }) {
      let password: string | undefined;
      try {
        password = await create(pool, email, [role], districts);
      } catch (error) {
        if (isNamed(error, 'UsernameExistsException')) return 'exists';
        throw error;
      }
      return { member: await describe(pool, email), ...(password && { temporaryPassword: password }) };
    },

    async assign(username, { role, districts }) {
      await setGroups(pool, username, role);
      await setDistricts(pool, username, districts);
    },

    async setEnabled(username, enabled) {
      const input = { UserPoolId: pool.userPoolId, Username: username };
      await send(pool, enabled ? 'AdminEnableUser' : 'AdminDisableUser', input);
    },

    async resetMfa(username) {
      const before = await describe(pool, username);
      const groups = await groupsOf(pool, username);
      await send(pool, 'AdminDeleteUser', { UserPoolId: pool.userPoolId, Username: username });
      const password = await create(pool, before.email, groups, before.districts);
      if (!before.enabled) {
        await send(pool, 'AdminDisableUser', { UserPoolId: pool.userPoolId, Username: before.email });
      }
      const after = await describe(pool, before.email);
      return { ...(password && { temporaryPassword: password }), previousSub: before.sub, sub: after.sub };
    },
  };
}
