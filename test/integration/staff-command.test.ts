import {
  AdminDisableUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { completeTotpSetup, localTotpSecret } from '../../local/cognito';
import { localCredentials, localRegion } from '../../local/dynamodb';
import { totpCode } from '../../local/totp';
import { createStaff, listStaff, resetStaffMfa, setStaff, setStaffEnabled } from '../../ops/staff';
import type { Target } from '../../ops/target';
import { signIn } from '../support/tokens';

// The staff command against cognito-local (with the MFA setup of local/cognito-mfa.ts): a
// created user must set a new password at first sign-in, then enrol an authenticator, and
// then holds the group's claim; `reset-mfa` makes them enrol again.
const pool = inject('pool');
const endpoint = inject('cognitoEndpoint');
const client = new CognitoIdentityProviderClient({ endpoint, region: localRegion, credentials: localCredentials });
afterAll(() => client.destroy());

const target: Target = {
  name: 'local',
  region: localRegion,
  local: true,
  cognitoEndpoint: endpoint,
  userPoolId: pool.userPoolId,
  userPoolClientId: pool.clientId,
  outboundQueueUrl: '',
  outboundDeadLetterQueueUrl: '',
  tableNames: {} as Target['tableNames'],
};

describe('staff command', () => {
  it('creates a viewer who must choose a new password at first sign-in', async () => {
    const email = `viewer-${Date.now()}@example.org`;
    const { temporaryPassword } = await createStaff(target, client, email, 'viewer');
    expect(temporaryPassword).toMatch(/^.{16}$/);

    const first = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: pool.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: temporaryPassword! },
      }),
    );
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const { idToken } = await firstSignIn(email, temporaryPassword!, 'A-New-Password-123!');
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims['cognito:groups']).toEqual(['viewer']);

    const user = await client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    expect(user.UserStatus).toBe('CONFIRMED');
    const listed = await listStaff(target, client);
    expect(listed.find((u) => u.email === email)).toMatchObject({
      role: 'viewer',
      districts: [],
      status: 'CONFIRMED',
      enabled: true,
      mfa: true,
    });
  });
});

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

/** Temporary password, new password, then enrolment (MFA is required): no tokens before the first code. */
async function firstSignIn(email: string, temporary: string, password: string) {
  const started = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: pool.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: temporary },
    }),
  );
  expect(started.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  const changed = await client.send(
    new RespondToAuthChallengeCommand({
      ClientId: pool.clientId,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: started.Session,
      ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password },
    }),
  );
  expect(changed.ChallengeName).toBe('MFA_SETUP');
  expect(changed.AuthenticationResult).toBeUndefined();
  return completeTotpSetup(client, pool.clientId, changed.Session, email);
}

describe('staff command: reset-mfa', () => {
  it('makes the user choose a new password and enrol a new authenticator, keeping their group', async () => {
    const email = `reset-${Date.now()}@example.org`;
    const { temporaryPassword } = await createStaff(target, client, email, 'admin');
    const first = await firstSignIn(email, temporaryPassword!, 'First-Password-123!');
    // Enrolled: a password sign-in now asks for the code.
    expect(claimsOf(await signIn(endpoint, pool.clientId, { email, password: 'First-Password-123!' }))['email']).toBe(
      email,
    );

    const reset = await resetStaffMfa(target, client, email);
    expect(reset.temporaryPassword).toMatch(/^.{16}$/);
    expect(reset.sub).not.toBe(reset.previousSub);
    // The old password (and with it the old authenticator) opens nothing.
    await expect(
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: pool.clientId,
          AuthParameters: { USERNAME: email, PASSWORD: 'First-Password-123!' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });

    const again = await firstSignIn(email, reset.temporaryPassword!, 'Second-Password-123!');
    expect(again.secret).not.toBe(first.secret);
    expect(claimsOf(again.idToken)).toMatchObject({ email, 'cognito:groups': ['admin'], sub: reset.sub });
  });

  it('keeps a disabled user disabled', async () => {
    const email = `reset-disabled-${Date.now()}@example.org`;
    await createStaff(target, client, email, 'viewer');
    await client.send(new AdminDisableUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    await resetStaffMfa(target, client, email);
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    expect(user.Enabled).toBe(false);
  });
});

describe('a disabled staff user', () => {
  it('can neither sign in nor refresh: an open session ends with its 15-minute tokens', async () => {
    const email = `disabled-${Date.now()}@example.org`;
    const { temporaryPassword } = await createStaff(target, client, email, 'viewer');
    await firstSignIn(email, temporaryPassword!, 'Viewer-Password-123!');
    const started = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: pool.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: 'Viewer-Password-123!' },
      }),
    );
    expect(started.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const idToken = await signIn(endpoint, pool.clientId, { email, password: 'Viewer-Password-123!' });
    const claims = claimsOf(idToken) as { exp: number; iat: number };
    expect(claims.exp - claims.iat).toBe(15 * 60);

    // The refresh token of a session opened before the disable.
    const session = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: pool.clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: started.Session,
        ChallengeResponses: {
          USERNAME: email,
          SOFTWARE_TOKEN_MFA_CODE: totpCode((await localTotpSecret(endpoint, { clientId: pool.clientId }, email))!),
        },
      }),
    );
    await client.send(new AdminDisableUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    await expect(
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: pool.clientId,
          AuthParameters: { REFRESH_TOKEN: session.AuthenticationResult?.RefreshToken ?? '' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(signIn(endpoint, pool.clientId, { email, password: 'Viewer-Password-123!' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });
});

describe('staff command: roles and districts', () => {
  it('creates a coordinator of two districts, whose token carries them, and refuses one without a district', async () => {
    const email = `coordinator-${Date.now()}@example.org`;
    await expect(createStaff(target, client, email, 'coordinator')).rejects.toThrow(/districts: REQUIRED/);
    await expect(createStaff(target, client, email, 'viewer', ['atlantis'])).rejects.toThrow(/districts: INVALID/);
    const { temporaryPassword } = await createStaff(target, client, email, 'coordinator', ['tiruvallur', 'chennai']);
    const { idToken } = await firstSignIn(email, temporaryPassword!, 'Coord-Password-123!');
    expect(claimsOf(idToken)).toMatchObject({
      'cognito:groups': ['coordinator'],
      'custom:districts': 'chennai,tiruvallur',
    });
  });

  it('sets a role and districts, disables and enables, and a reset keeps the districts', async () => {
    const email = `set-${Date.now()}@example.org`;
    await createStaff(target, client, email, 'viewer');
    await setStaff(target, client, email, 'coordinator', ['madurai']);
    const find = async () => (await listStaff(target, client)).find((u) => u.email === email);
    expect(await find()).toMatchObject({ role: 'coordinator', districts: ['madurai'] });
    await setStaffEnabled(target, client, email, false);
    expect(await find()).toMatchObject({ enabled: false });
    await resetStaffMfa(target, client, email);
    expect(await find()).toMatchObject({ role: 'coordinator', districts: ['madurai'], enabled: false, mfa: false });
    await setStaffEnabled(target, client, email, true);
    await setStaff(target, client, email, 'admin', ['madurai']);
    // An admin sees every district: the attribute goes.
    expect(await find()).toMatchObject({ role: 'admin', districts: [], enabled: true });
  });
});
