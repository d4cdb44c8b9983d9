import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { localCredentials, localRegion } from './dynamodb';
import { manageChild } from './child-process';
import { waitFor } from './ports';

export interface LocalCognito {
  readonly endpoint: string;
  readonly client: CognitoIdentityProviderClient;
  stop(): Promise<void>;
}

export interface LocalPool {
  readonly userPoolId: string;
  readonly clientId: string;
  /** Token issuer, as API Gateway's JWT authorizer would be configured with it. */
  readonly issuer: string;
}

export const POOL_NAME = 'membership-local';
export const CLIENT_NAME = 'membership-spa';
export const STAFF_GROUPS = ['admin', 'viewer'] as const;

/**
 * cognito-local, run as a child process in `dataDir` (it keeps its config and users
 * under `.cognito/` of its working directory). Its signing key ships in the npm
 * package, so its issuer is trusted only in local mode.
 */
export async function startCognitoLocal(options: { port: number; dataDir: string }): Promise<LocalCognito> {
  const cwd = resolve(options.dataDir);
  mkdirSync(cwd, { recursive: true });
  const require = createRequire(import.meta.url);
  const entry = require.resolve('cognito-local/lib/bin/start.js');
  const child = manageChild(
    spawn(process.execPath, [entry], {
      cwd,
      env: { ...process.env, PORT: String(options.port), HOST: '127.0.0.1', DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new CognitoIdentityProviderClient({ endpoint, region: localRegion, credentials: localCredentials });
  await waitFor(async () => {
    if (child.exited()) throw new Error(`cognito-local exited: ${child.output()}`);
    await client.send(new ListUserPoolsCommand({ MaxResults: 1 }));
  }, 'cognito-local');
  return {
    endpoint,
    client,
    stop: async () => {
      client.destroy();
      await child.stop();
    },
  };
}

/** The pool, its SPA client and the staff groups; found again on a restart, created once. */
export async function ensurePool(cognito: LocalCognito): Promise<LocalPool> {
  const { client, endpoint } = cognito;
  const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  let userPoolId = pools.UserPools?.find((p) => p.Name === POOL_NAME)?.Id;
  if (!userPoolId) {
    const created = await client.send(
      new CreateUserPoolCommand({
        PoolName: POOL_NAME,
        UsernameAttributes: ['email'],
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      }),
    );
    userPoolId = created.UserPool?.Id;
  }
  if (!userPoolId) throw new Error('cognito-local did not create the user pool');
  const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let clientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
  if (!clientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: CLIENT_NAME,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    clientId = created.UserPoolClient?.ClientId;
  }
  if (!clientId) throw new Error('cognito-local did not create the app client');
  for (const group of STAFF_GROUPS) {
    try {
      await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group }));
    } catch (error) {
      if ((error as Error).name !== 'GroupExistsException') throw error;
    }
  }
  return { userPoolId, clientId, issuer: `${endpoint}/${userPoolId}` };
}

/**
 * A staff user with a permanent password, in the given groups (none: a signed-in
 * user the API must refuse). Idempotent.
 */
export async function ensureStaffUser(
  cognito: LocalCognito,
  pool: LocalPool,
  user: { email: string; password: string; groups: readonly string[] },
): Promise<void> {
  const { client } = cognito;
  try {
    await client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: user.email }));
  } catch (error) {
    if (!(error instanceof UserNotFoundException) && (error as Error).name !== 'UserNotFoundException') throw error;
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: pool.userPoolId,
        Username: user.email,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: 'true' },
        ],
        MessageAction: 'SUPPRESS',
      }),
    );
    await client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: pool.userPoolId,
        Username: user.email,
        Password: user.password,
        Permanent: true,
      }),
    );
  }
  for (const group of user.groups) {
    await client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: user.email, GroupName: group }),
    );
  }
}
