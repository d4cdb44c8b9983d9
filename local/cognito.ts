import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AddCustomAttributesCommand,
  AdminAddUserToGroupCommand,
  AdminUpdateUserAttributesCommand,
  AssociateSoftwareTokenCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  type CreateUserPoolClientCommandInput,
  CreateUserPoolCommand,
  DescribeUserPoolCommand,
  InitiateAuthCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  RespondToAuthChallengeCommand,
  SetUserPoolMfaConfigCommand,
  UpdateUserPoolClientCommand,
  UserNotFoundException,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { localCredentials, localRegion } from './dynamodb';
import { manageChild, type ServedChild, whenServing } from './child-process';
import { onFreePort } from './ports';
import { totpCode } from './totp';
import { DISTRICTS_ATTRIBUTE, districtsClaim, staffRoles } from '../rules/staff-scope';

export type LocalCognito = ServedChild<CognitoIdentityProviderClient>;

export interface LocalPool {
  readonly userPoolId: string;
  readonly clientId: string;
  /** Token issuer, as API Gateway's JWT authorizer would be configured with it. */
  readonly issuer: string;
}

const POOL_NAME = 'membership-local';
const CLIENT_NAME = 'membership-spa';
const STAFF_GROUPS = staffRoles;

/**
 * cognito-local, run as a child process in `dataDir` (it keeps its config and users
 * under `.cognito/` of its working directory), with the MFA setup it lacks
 * (./cognito-server, ./cognito-mfa). Its signing key ships in the npm package, so its
 * issuer is trusted only in local mode.
 */
export async function startCognitoLocal(options: { dataDir: string }): Promise<LocalCognito> {
  const cwd = resolve(options.dataDir);
  mkdirSync(cwd, { recursive: true });
  const require = createRequire(import.meta.url);
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const entry = resolve(import.meta.dirname, 'cognito-server.ts');
  return onFreePort((port) => {
    const child = manageChild(
      spawn(process.execPath, ['--import', tsx, entry], {
        cwd,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEBUG: '', NODE_NO_WARNINGS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const endpoint = `http://127.0.0.1:${port}`;
    const client = new CognitoIdentityProviderClient({ endpoint, region: localRegion, credentials: localCredentials });
    return whenServing('cognito-local', child, endpoint, client, (c) =>
      c.send(new ListUserPoolsCommand({ MaxResults: 1 })),
    );
  });
}

/**
 * The SPA client as the stack's: USER_PASSWORD_AUTH (the one password flow cognito-local
 * has; the stack's client uses SRP) and 15-minute tokens, so that a disabled user loses
 * access within 15 minutes here too (the refresh is refused).
 */
export const localClientSettings: Pick<
  CreateUserPoolClientCommandInput,
  'ExplicitAuthFlows' | 'AccessTokenValidity' | 'IdTokenValidity' | 'RefreshTokenValidity' | 'TokenValidityUnits'
> = {
  ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  AccessTokenValidity: 15,
  IdTokenValidity: 15,
  RefreshTokenValidity: 12,
  TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'hours' },
};

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
  // As the stack's pool (lib/constructs/staff-auth.ts): TOTP required of every user. Set on
  // every start, so that a pool made before MFA was required gets it too.
  await client.send(
    new SetUserPoolMfaConfigCommand({
      UserPoolId: userPoolId,
      MfaConfiguration: 'ON',
      SoftwareTokenMfaConfiguration: { Enabled: true },
    }),
  );
  // As the stack's pool: a user's districts in custom:districts (added to a pool made before it).
  const { UserPool: described } = await client.send(new DescribeUserPoolCommand({ UserPoolId: userPoolId }));
  if (!described?.SchemaAttributes?.some((a) => a.Name === districtsClaim)) {
    await client.send(
      new AddCustomAttributesCommand({
        UserPoolId: userPoolId,
        CustomAttributes: [
          {
            Name: DISTRICTS_ATTRIBUTE,
            AttributeDataType: 'String',
            Mutable: true,
            StringAttributeConstraints: { MinLength: '0', MaxLength: '2048' },
          },
        ],
      }),
    );
  }
  const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let clientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
  if (!clientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({ UserPoolId: userPoolId, ClientName: CLIENT_NAME, ...localClientSettings }),
    );
    clientId = created.UserPoolClient?.ClientId;
  } else {
    await client.send(
      new UpdateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientId: clientId,
        ClientName: CLIENT_NAME,
        ...localClientSettings,
      }),
    );
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
 * A staff user with a permanent password and an authenticator enrolled, in the given
 * groups (none: a signed-in user the API must refuse). Idempotent. Answers the user's
 * TOTP secret, which the start-up table prints (local mode only).
 */
export async function ensureStaffUser(
  cognito: LocalCognito,
  pool: LocalPool,
  user: { email: string; password: string; groups: readonly string[]; districts?: string },
): Promise<{ totpSecret: string }> {
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
  if (user.districts !== undefined) {
    await client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: pool.userPoolId,
        Username: user.email,
        UserAttributes: [{ Name: districtsClaim, Value: user.districts }],
      }),
    );
  }
  const known = await localTotpSecret(cognito.endpoint, { userPoolId: pool.userPoolId }, user.email);
  return { totpSecret: known ?? (await enrolTotp(client, pool.clientId, user)) };
}

/** A confirmed user's first sign-in under required MFA: password, then enrolment. Answers the secret. */
async function enrolTotp(
  client: CognitoIdentityProviderClient,
  clientId: string,
  user: { email: string; password: string },
): Promise<string> {
  const started = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
    }),
  );
  if (started.ChallengeName !== 'MFA_SETUP')
    throw new Error(`${user.email}: expected MFA_SETUP, got ${started.ChallengeName}`);
  return (await completeTotpSetup(client, clientId, started.Session, user.email)).secret;
}

/**
 * The MFA_SETUP challenge answered as the SPA answers it: AssociateSoftwareToken with the
 * challenge's session, VerifySoftwareToken with the first code, RespondToAuthChallenge
 * MFA_SETUP. Answers the secret and the id token.
 */
export async function completeTotpSetup(
  client: CognitoIdentityProviderClient,
  clientId: string,
  session: string | undefined,
  email: string,
): Promise<{ secret: string; idToken: string }> {
  const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: session }));
  const secret = associated.SecretCode ?? '';
  const verified = await client.send(
    new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: totpCode(secret) }),
  );
  const done = await client.send(
    new RespondToAuthChallengeCommand({
      ClientId: clientId,
      ChallengeName: 'MFA_SETUP',
      Session: verified.Session,
      ChallengeResponses: { USERNAME: email },
    }),
  );
  return { secret, idToken: done.AuthenticationResult?.IdToken ?? '' };
}

/**
 * An enrolled user's TOTP secret, from the local-only route of ./cognito-server
 * (undefined: no authenticator yet). The pool is named by its id or by a client's id.
 */
export async function localTotpSecret(
  endpoint: string,
  pool: { userPoolId: string } | { clientId: string },
  username: string,
): Promise<string | undefined> {
  const query = new URLSearchParams({ ...pool, username });
  const response = await fetch(`${endpoint}/__local/totp-secret?${query}`);
  if (response.status === 404) return undefined;
  const body = (await response.json()) as { secret?: string; message?: string };
  if (!response.ok || !body.secret) throw new Error(`cognito-local: ${body.message ?? response.status}`);
  return body.secret;
}
