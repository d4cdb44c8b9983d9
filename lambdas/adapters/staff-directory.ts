import { randomInt } from 'node:crypto';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminListUserAuthEventsCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { StaffAssignment, StaffInvite, StaffMember } from '../../rules/staff-admin';
import {
  districtsClaim,
  formatDistrictIds,
  parseDistrictIds,
  type StaffRole,
  staffRoles,
} from '../../rules/staff-scope';

// The staff pool's users, managed: the one module both the staff-management routes
// (lambdas/handlers/staff-admin.ts) and the operator command (ops/staff.ts) call, so that
// an invitation, a role change or an authenticator reset does the same from either. The
// calls are exactly contracts/staff-directory.ts `staffDirectoryActions`, the function's grant.

export interface StaffDirectoryOptions {
  readonly client: CognitoIdentityProviderClient;
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
const roleOf = (groups: readonly string[]): StaffRole | null =>
  staffRoles.find((r) => groups.includes(r)) ?? null;

const isNamed = (error: unknown, name: string) => (error as { name?: string } | undefined)?.name === name;

/** The pool and what the directory remembers of it for the container's life. */
interface Pool {
  readonly client: CognitoIdentityProviderClient;
  readonly userPoolId: string;
  readonly local: boolean;
  /**
   * AdminListUserAuthEvents answers only with the Plus plan's threat protection, and
   * cognito-local has no such call: after one refusal, the last sign-in is null for the
   * container's life rather than one failing call per user.
   */
  readonly state: { authEvents: boolean };
}

async function groupsOf(pool: Pool, username: string): Promise<string[]> {
  const groups: string[] = [];
  let token: string | undefined;
  do {
    const page = await pool.client.send(
      new AdminListGroupsForUserCommand({ UserPoolId: pool.userPoolId, Username: username, NextToken: token }),
    );
    groups.push(...(page.Groups ?? []).map((g) => g.GroupName ?? '').filter(Boolean));
    token = page.NextToken;
  } while (token);
  return groups;
}

async function lastSignIn(pool: Pool, username: string): Promise<string | null> {
  if (!pool.state.authEvents) return null;
  try {
    const { AuthEvents } = await pool.client.send(
      new AdminListUserAuthEventsCommand({ UserPoolId: pool.userPoolId, Username: username, MaxResults: 20 }),
    );
    const signIn = (AuthEvents ?? []).find((e) => e.EventType === 'SignIn' && e.EventResponse === 'Pass');
    return signIn?.CreationDate?.toISOString() ?? null;
  } catch (error) {
    if (isNamed(error, 'UserNotFoundException')) return null;
    pool.state.authEvents = false;
    return null;
  }
}

/** Everything the list shows of one user: their groups, MFA and last sign-in besides what ListUsers gave. */
async function describe(pool: Pool, username: string): Promise<DirectoryMember> {
  const [user, groups, signedIn] = await Promise.all([
    pool.client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: username })),
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
    const page = await pool.client.send(
      new ListUsersCommand({ UserPoolId: pool.userPoolId, PaginationToken: token, Filter: filter }),
    );
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
    await pool.client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: username, GroupName: role }),
    );
  }
  for (const group of current.filter((g) => g !== role && (staffRoles as readonly string[]).includes(g))) {
    await pool.client.send(
      new AdminRemoveUserFromGroupCommand({ UserPoolId: pool.userPoolId, Username: username, GroupName: group }),
    );
  }
}

async function setDistricts(pool: Pool, username: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) {
    await pool.client.send(
      new AdminDeleteUserAttributesCommand({
        UserPoolId: pool.userPoolId,
        Username: username,
        UserAttributeNames: [districtsClaim],
      }),
    );
    return;
  }
  await pool.client.send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: pool.userPoolId,
      Username: username,
      UserAttributes: [{ Name: districtsClaim, Value: formatDistrictIds(ids) }],
    }),
  );
}

/** Creates the user with their groups and districts; a temporary password locally. */
async function create(pool: Pool, email: string, groups: readonly string[], districts: readonly string[]) {
  const password = pool.local ? temporaryPassword() : undefined;
  await pool.client.send(
    new AdminCreateUserCommand({
      UserPoolId: pool.userPoolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        ...(districts.length > 0 ? [{ Name: districtsClaim, Value: formatDistrictIds(districts) }] : []),
      ],
      DesiredDeliveryMediums: ['EMAIL'],
      ...(password && { TemporaryPassword: password, MessageAction: 'SUPPRESS' }),
    }),
  );
  for (const group of groups) {
    await pool.client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: email, GroupName: group }),
    );
  }
  return password;
}

export function makeStaffDirectory({ client, userPoolId, local }: StaffDirectoryOptions): StaffDirectory {
  const pool: Pool = { client, userPoolId, local, state: { authEvents: true } };
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
      await pool.client.send(enabled ? new AdminEnableUserCommand(input) : new AdminDisableUserCommand(input));
    },

    async resetMfa(username) {
      const before = await describe(pool, username);
      const groups = await groupsOf(pool, username);
      await pool.client.send(new AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: username }));
      const password = await create(pool, before.email, groups, before.districts);
      if (!before.enabled) {
        await pool.client.send(new AdminDisableUserCommand({ UserPoolId: pool.userPoolId, Username: before.email }));
      }
      const after = await describe(pool, before.email);
      return { ...(password && { temporaryPassword: password }), previousSub: before.sub, sub: after.sub };
    },
  };
}
