import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localCredentials, localRegion } from '../../local/dynamodb';
import { createStaff, listStaff } from '../../ops/staff';
import type { Target } from '../../ops/target';

// The staff command against cognito-local: a created user must set a new password at
// first sign-in and then holds the group's claim.
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
    const done = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: pool.clientId,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: first.Session,
        ChallengeResponses: { USERNAME: email, NEW_PASSWORD: 'A-New-Password-123!' },
      }),
    );
    const idToken = done.AuthenticationResult?.IdToken ?? '';
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims['cognito:groups']).toEqual(['viewer']);

    const user = await client.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    expect(user.UserStatus).toBe('CONFIRMED');
    const listed = await listStaff(target, client);
    expect(listed.find((u) => u.email === email)).toMatchObject({ groups: ['viewer'], status: 'CONFIRMED', enabled: true });
  });
});
