import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ensureStaffUser } from '../../local/cognito';
import { localCredentials, localRegion } from '../../local/dynamodb';
import type { LocalEndpoints } from '../../ops/target';

// Staff users for the end-to-end tests, made as an operator makes them: the staff
// command for staff, and the local pool's own helper for a user in no staff group
// (which the command, rightly, does not make).

/** Runs `npm run staff -- create` against the stack in `dataDir`; answers the temporary password it prints. */
export async function createStaffByCommand(dataDir: string, email: string, group: 'admin' | 'viewer'): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'ops/staff.ts', 'create', '--email', email, '--group', group],
    {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, LOCAL_DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' },
    },
  );
  const temporary = /Temporary password: (\S+)/.exec(stdout)?.[1];
  if (!temporary) throw new Error(`no temporary password in: ${stdout}`);
  return temporary;
}

/** A confirmed user with a password of their own, in the groups given (none: no staff access). */
export async function ensureUser(
  endpoints: LocalEndpoints,
  user: { email: string; password: string; groups: readonly string[] },
): Promise<void> {
  const client = new CognitoIdentityProviderClient({
    endpoint: endpoints.cognitoEndpoint,
    region: localRegion,
    credentials: localCredentials,
  });
  try {
    await ensureStaffUser(
      { endpoint: endpoints.cognitoEndpoint, client, stop: async () => undefined },
      { userPoolId: endpoints.userPoolId, clientId: endpoints.userPoolClientId, issuer: '' },
      user,
    );
  } finally {
    client.destroy();
  }
}
