// `npm run staff -- create --email X --group admin|coordinator|viewer [--districts chennai,tiruvallur]`
// (also `list`, `set --email X --group G [--districts …]`, `disable --email X`, `enable --email X`,
// `reset-mfa --email X`) against the running local stack, or a deployed stage with `--stage NAME`.
// The work is lambdas/adapters/staff-directory.ts, the same module the staff area's Staff page calls.
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import * as v from 'valibot';
import { z } from 'zod';
import {
  cognitoIdp,
  type DirectoryMember,
  makeStaffDirectory,
  type StaffDirectory,
} from '../lambdas/adapters/staff-directory';
import { staffAssignmentSchema, staffInviteSchema } from '../rules/staff-admin';
import { issuePath } from '../rules/schema';
import { type StaffRole, staffRoles } from '../rules/staff-scope';
import { parseCommand, runCommand } from './cli';
import { clientOptions, resolveTarget, type Target } from './target';

export { temporaryPassword } from '../lambdas/adapters/staff-directory';

const usage = `Usage:
  npm run staff -- create --email someone@example.org --group admin|coordinator|viewer [--districts chennai,tiruvallur] [--stage NAME]
  npm run staff -- set --email someone@example.org --group admin|coordinator|viewer [--districts chennai,tiruvallur] [--stage NAME]
  npm run staff -- list [--stage NAME]
  npm run staff -- disable --email someone@example.org [--stage NAME]
  npm run staff -- enable --email someone@example.org [--stage NAME]
  npm run staff -- reset-mfa --email someone@example.org [--stage NAME]   (lost authenticator)
A coordinator needs --districts (district ids, comma-separated); a viewer without it sees every district.
Without --stage the command acts on the local stack started by \`npm start\`.`;

/**
 * The directory over the lambdas' own Cognito caller (lambdas/lib/aws-json.ts), signed with
 * what the SDK client resolves: the operator's credential chain (profile, SSO…) and region,
 * or cognito-local's fixed credentials at its endpoint.
 */
async function directoryOf(target: Target, client: CognitoIdentityProviderClient): Promise<StaffDirectory> {
  const { accessKeyId, secretAccessKey, sessionToken } = await client.config.credentials();
  const call = cognitoIdp({
    region: await client.config.region(),
    endpoint: target.local ? target.cognitoEndpoint : undefined,
    credentials: { accessKeyId, secretAccessKey, sessionToken },
  });
  return makeStaffDirectory({ call, userPoolId: target.userPoolId, local: target.local });
}

/** The rules/staff-admin.ts check, as one line for the terminal. */
function checked<T extends v.GenericSchema>(schema: T, input: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw new Error(result.issues.map((issue) => `${issuePath(issue) || 'input'}: ${issue.message}`).join('; '));
}

export async function createStaff(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
  group: StaffRole,
  districts: readonly string[] = [],
): Promise<{ temporaryPassword?: string }> {
  const invite = checked(staffInviteSchema, { email, role: group, districts });
  const result = await (await directoryOf(target, client)).invite(invite);
  if (result === 'exists') throw new Error(`${email} is already a user of ${target.name}.`);
  return result.temporaryPassword ? { temporaryPassword: result.temporaryPassword } : {};
}

async function found(directory: StaffDirectory, email: string): Promise<DirectoryMember> {
  const member = await directory.find({ email });
  if (!member) throw new Error(`No staff user ${email}.`);
  return member;
}

/** A user's role and districts, changed; takes effect at their next token (15 minutes at most). */
export async function setStaff(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
  group: StaffRole,
  districts: readonly string[] = [],
): Promise<void> {
  const assignment = checked(staffAssignmentSchema, { role: group, districts });
  const directory = await directoryOf(target, client);
  await directory.assign((await found(directory, email)).username, assignment);
}

export async function setStaffEnabled(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
  enabled: boolean,
): Promise<void> {
  const directory = await directoryOf(target, client);
  await directory.setEnabled((await found(directory, email)).username, enabled);
}

/** lambdas/adapters/staff-directory.ts `resetMfa`: the user is made again, with their groups and districts. */
export async function resetStaffMfa(
  target: Target,
  client: CognitoIdentityProviderClient,
  email: string,
): Promise<{ temporaryPassword?: string; previousSub: string; sub: string }> {
  const directory = await directoryOf(target, client);
  return directory.resetMfa((await found(directory, email)).username);
}

export async function listStaff(target: Target, client: CognitoIdentityProviderClient): Promise<DirectoryMember[]> {
  return (await directoryOf(target, client)).list();
}

const stage = z.string().optional();
const email = z.email();
const group = z.enum(staffRoles);
const districts = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean),
  );
const argsSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create'), email, group, districts, stage }),
  z.object({ command: z.literal('set'), email, group, districts, stage }),
  z.object({ command: z.literal('list'), stage }),
  z.object({ command: z.literal('disable'), email, stage }),
  z.object({ command: z.literal('enable'), email, stage }),
  z.object({ command: z.literal('reset-mfa'), email, stage }),
]);
type Args = z.infer<typeof argsSchema>;

const passwordNote = (password: string | undefined, next: string) =>
  password ? `Temporary password: ${password}\n${next}\n` : `Cognito has e-mailed a temporary password. ${next}\n`;

const scopeText = (ids: readonly string[]) => (ids.length > 0 ? ids.join(',') : 'every district');

async function run(args: Args, target: Target, client: CognitoIdentityProviderClient): Promise<number> {
  const out = (text: string) => process.stdout.write(text);
  switch (args.command) {
    case 'create': {
      const result = await createStaff(target, client, args.email, args.group, args.districts);
      out(
        `Created ${args.email} (${args.group}, ${scopeText(args.group === 'admin' ? [] : args.districts)}) in ${target.name}.\n`,
      );
      out(passwordNote(result.temporaryPassword, 'A new password is asked at first sign-in.'));
      return 0;
    }
    case 'set':
      await setStaff(target, client, args.email, args.group, args.districts);
      out(
        `${args.email} is now ${args.group} (${scopeText(args.group === 'admin' ? [] : args.districts)}) in ${target.name}; it applies from their next token (15 minutes at most).\n`,
      );
      return 0;
    case 'list': {
      const users = await listStaff(target, client);
      for (const u of users) {
        const cells = [u.email, u.role ?? '(no group)', scopeText(u.districts), u.status, u.mfa ? 'MFA' : 'no MFA'];
        out(`${cells.join('\t')}${u.enabled ? '' : '\tDISABLED'}\n`);
      }
      out(`${users.length} staff user(s) in ${target.name}.\n`);
      return 0;
    }
    case 'disable':
      await setStaffEnabled(target, client, args.email, false);
      out(
        `Disabled ${args.email} in ${target.name}. They can no longer sign in; a session already open ends within 15 minutes (its tokens are not refreshed).\n`,
      );
      return 0;
    case 'enable':
      await setStaffEnabled(target, client, args.email, true);
      out(`Enabled ${args.email} in ${target.name}.\n`);
      return 0;
    case 'reset-mfa': {
      const result = await resetStaffMfa(target, client, args.email);
      out(
        `Reset the authenticator of ${args.email} in ${target.name}: the user was made again (sub ${result.previousSub} is now ${result.sub}).\n`,
      );
      out(
        passwordNote(
          result.temporaryPassword,
          'At the next sign-in they choose a new password, then enrol an authenticator.',
        ),
      );
      return 0;
    }
  }
}

async function main(): Promise<number> {
  const parsed = parseCommand(argsSchema, {
    usage,
    positional: true,
    options: {
      email: { type: 'string' },
      group: { type: 'string' },
      districts: { type: 'string' },
      stage: { type: 'string' },
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const target = await resolveTarget(parsed.args.stage);
  const client = new CognitoIdentityProviderClient(clientOptions(target, target.cognitoEndpoint));
  try {
    return await run(parsed.args, target, client);
  } finally {
    client.destroy();
  }
}

runCommand(import.meta.url, main);
