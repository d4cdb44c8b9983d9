// `npm run staff -- create --email X --group admin|viewer` (also `list`, `disable --email X`,
// `reset-mfa --email X`) against the running local stack, or a deployed stage with `--stage NAME`.
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { z } from 'zod';
import { clientOptions, resolveTarget, type Target } from './target';
import { runCommand } from './cli';


const usage = `Usage:
  npm run staff -- create --email someone@example.org --group admin|viewer [--stage NAME]
  npm run staff -- list [--stage NAME]
  npm run staff -- disable --email someone@example.org [--stage NAME]
  npm run staff -- reset-mfa --email someone@example.org [--stage NAME]   (lost authenticator)
Without --stage the command acts on the local stack started by \`npm start\`.`;

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

export async function createStaff(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
  group: 'admin' | 'viewer',
): Promise<{ temporaryPassword?: string }> {
  return makeUser(target, client, email, [group]);
}

async function makeUser(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
  groups: readonly string[],
): Promise<{ temporaryPassword?: string }> {
  // Cognito e-mails the temporary password in AWS; cognito-local sends no mail, so the
  // command sets one and prints it.
  const password = target.local ? temporaryPassword() : undefined;
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: target.userPoolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
      ...(password && { TemporaryPassword: password, MessageAction: 'SUPPRESS' }),
    }),
  );
  for (const group of groups) {
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: target.userPoolId, Username: email, GroupName: group }));
  }
  return password ? { temporaryPassword: password } : {};
}

/**
 * A staff member's authenticator, reset (a lost or replaced phone). The pool requires MFA,
 * and there Cognito cannot take a TOTP authenticator off a user: AdminSetUserMFAPreference
 * "can't turn off TOTP MFA ... when MFA is required" (it answers 200 and changes nothing),
 * and no API deletes the secret. So the user is made again: deleted, then created with the
 * same email, groups and enabled state and a new temporary password (e-mailed by Cognito,
 * printed locally). The next sign-in asks for a new password, then enrols an authenticator.
 * Their `sub` changes: the audit trail keeps the email beside it, and the command prints both.
 */
export async function resetStaffMfa(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
): Promise<{ temporaryPassword?: string; previousSub: string; sub: string }> {
  const sub = async () => {
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: target.userPoolId, Username: email }));
    return { sub: user.UserAttributes?.find((a) => a.Name === 'sub')?.Value ?? user.Username ?? '', enabled: user.Enabled ?? true };
  };
  const before = await sub();
  const groups = await client.send(new AdminListGroupsForUserCommand({ UserPoolId: target.userPoolId, Username: email }));
  await client.send(new AdminDeleteUserCommand({ UserPoolId: target.userPoolId, Username: email }));
  const made = await makeUser(target, client, email, (groups.Groups ?? []).map((g) => g.GroupName ?? '').filter(Boolean));
  if (!before.enabled) await client.send(new AdminDisableUserCommand({ UserPoolId: target.userPoolId, Username: email }));
  return { ...made, previousSub: before.sub, sub: (await sub()).sub };
}

export async function listStaff(target: Target, client: CognitoIdentityProviderClient) {
  const users: { email: string; status: string; enabled: boolean; groups: string[] }[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListUsersCommand({ UserPoolId: target.userPoolId, PaginationToken: token }));
    for (const user of page.Users ?? []) {
      const groups = await client.send(
        new AdminListGroupsForUserCommand({ UserPoolId: target.userPoolId, Username: user.Username! }),
      );
      users.push({
        email: user.Attributes?.find((a) => a.Name === 'email')?.Value ?? user.Username ?? '',
        status: user.UserStatus ?? '',
        enabled: user.Enabled ?? true,
        groups: (groups.Groups ?? []).map((g) => g.GroupName ?? ''),
      });
    }
    token = page.PaginationToken;
  } while (token);
  return users;
}

const argsSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create'), email: z.email(), group: z.enum(['admin', 'viewer']), stage: z.string().optional() }),
  z.object({ command: z.literal('list'), stage: z.string().optional() }),
  z.object({ command: z.literal('disable'), email: z.email(), stage: z.string().optional() }),
  z.object({ command: z.literal('reset-mfa'), email: z.email(), stage: z.string().optional() }),
]);

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { email: { type: 'string' }, group: { type: 'string' }, stage: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  const parsed = argsSchema.safeParse({ ...values, command: positionals[0] });
  if (values.help || !parsed.success) {
    const problem = parsed.success || values.help ? '' : `${z.prettifyError(parsed.error)}\n\n`;
    process.stderr.write(`${problem}${usage}\n`);
    return values.help ? 0 : 2;
  }
  const args = parsed.data;
  const target = await resolveTarget(args.stage);
  const client = new CognitoIdentityProviderClient(clientOptions(target, target.cognitoEndpoint));
  try {
    switch (args.command) {
      case 'create': {
        const result = await createStaff(target, client, args.email, args.group);
        process.stdout.write(`Created ${args.email} (${args.group}) in ${target.name}.\n`);
        process.stdout.write(
          result.temporaryPassword
            ? `Temporary password: ${result.temporaryPassword}\nA new password is asked at first sign-in.\n`
            : 'Cognito has e-mailed a temporary password; a new one is asked at first sign-in.\n',
        );
        return 0;
      }
      case 'list': {
        const users = await listStaff(target, client);
        for (const u of users) {
          process.stdout.write(`${u.email}\t${u.groups.join(',') || '(no group)'}\t${u.status}${u.enabled ? '' : '\tDISABLED'}\n`);
        }
        process.stdout.write(`${users.length} staff user(s) in ${target.name}.\n`);
        return 0;
      }
      case 'disable':
        await client.send(new AdminDisableUserCommand({ UserPoolId: target.userPoolId, Username: args.email }));
        process.stdout.write(
          `Disabled ${args.email} in ${target.name}. They can no longer sign in; a session already open ends within 15 minutes (its tokens are not refreshed).\n`,
        );
        return 0;
      case 'reset-mfa': {
        const result = await resetStaffMfa(target, client, args.email);
        process.stdout.write(
          `Reset the authenticator of ${args.email} in ${target.name}: the user was made again (sub ${result.previousSub} is now ${result.sub}).\n`,
        );
        process.stdout.write(
          result.temporaryPassword
            ? `Temporary password: ${result.temporaryPassword}\nAt the next sign-in they choose a new password, then enrol an authenticator.\n`
            : 'Cognito has e-mailed a temporary password; at the next sign-in they choose a new password, then enrol an authenticator.\n',
        );
        return 0;
      }
    }
  } finally {
    client.destroy();
  }
}

runCommand(import.meta.url, main);
