import { describe, expect, it } from 'vitest';
import { cognitoIdp, makeStaffDirectory } from './staff-directory';

// The directory over the wire as Cognito speaks it (AWS JSON 1.1, answered here by a fake
// fetch): what cognito-local does not have or does not do as AWS does, which the
// integration tests (test/integration/staff-admin.test.ts, staff-command.test.ts) cannot
// reach. Dates arrive as epoch seconds, errors as a `__type` the directory matches by name.

type Answer = { status?: number; body: unknown };
type Route = (input: Record<string, unknown>) => Answer;

interface Seen {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly headers: Headers;
  readonly url: string;
}

/** A Cognito that answers each operation from `routes` (404-like error for any other) and records each call. */
function fakeCognito(routes: Record<string, Route>, local = false) {
  const seen: Seen[] = [];
  const fetch = (async (request: Request) => {
    const operation = (request.headers.get('x-amz-target') ?? '').split('.')[1] ?? '';
    const input = JSON.parse(await request.text()) as Record<string, unknown>;
    seen.push({ operation, input, headers: request.headers, url: request.url });
    const route = routes[operation];
    const { status = 200, body } = route
      ? route(input)
      : { status: 400, body: { __type: 'InvalidParameterException', message: `no ${operation} here` } };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/x-amz-json-1.1' },
    });
  }) as typeof globalThis.fetch;
  const call = cognitoIdp({
    region: 'ap-south-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    fetch,
    sleep: async () => undefined,
  });
  const directory = makeStaffDirectory({ call, userPoolId: 'ap-south-1_pool', local });
  return { directory, seen, calls: (operation: string) => seen.filter((s) => s.operation === operation) };
}

const user = (email: string, sub: string) => ({
  Username: email,
  Attributes: [
    { Name: 'sub', Value: sub },
    { Name: 'email', Value: email },
  ],
});

/** Two users over two ListUsers pages, each a viewer; `authEvents` answers AdminListUserAuthEvents. */
function twoUsers(authEvents: Route) {
  return fakeCognito({
    ListUsers: (input) =>
      input.PaginationToken
        ? { body: { Users: [user('b@example.org', 'sub-b')] } }
        : { body: { Users: [user('c@example.org', 'sub-c')], PaginationToken: 'next' } },
    AdminGetUser: (input) => ({
      body: {
        Username: input.Username,
        UserAttributes: user(String(input.Username), `sub-${String(input.Username)[0]}`).Attributes,
        Enabled: true,
        UserStatus: 'CONFIRMED',
        UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
        UserCreateDate: 1732496931.5,
        UserLastModifiedDate: 1732496931.5,
      },
    }),
    AdminListGroupsForUser: () => ({ body: { Groups: [{ GroupName: 'viewer', CreationDate: 1700000000 }] } }),
    AdminListUserAuthEvents: authEvents,
  });
}

describe('staff directory over AWS JSON', () => {
  it('calls Cognito as the SDK does: its regional endpoint, JSON 1.1, the operation in X-Amz-Target, signed for cognito-idp', async () => {
    const { directory, seen } = fakeCognito({ ListUsers: () => ({ body: { Users: [] } }) });
    expect(await directory.find({ email: 'Nobody@Example.org' })).toBeUndefined();
    expect(seen).toHaveLength(1);
    const [first] = seen;
    expect(first!.url).toBe('https://cognito-idp.ap-south-1.amazonaws.com/');
    expect(first!.headers.get('x-amz-target')).toBe('AWSCognitoIdentityProviderService.ListUsers');
    expect(first!.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(first!.headers.get('authorization')).toContain('/ap-south-1/cognito-idp/aws4_request');
    // No PaginationToken on the first page: an absent field is left out, not sent as null.
    expect(first!.input).toEqual({ UserPoolId: 'ap-south-1_pool', Filter: 'email = "nobody@example.org"' });
  });

  it('lists every page, and reads the last sign-in from epoch seconds (fractional) as ISO 8601', async () => {
    const { directory } = twoUsers(() => ({
      body: {
        AuthEvents: [
          { EventType: 'SignIn', EventResponse: 'Fail', CreationDate: 1732500000 },
          { EventType: 'SignIn', EventResponse: 'Pass', CreationDate: 1732496931.123 },
        ],
      },
    }));
    const members = await directory.list();
    expect(members.map((m) => m.email)).toEqual(['b@example.org', 'c@example.org']);
    expect(members[0]).toEqual({
      username: 'b@example.org',
      sub: 'sub-b',
      email: 'b@example.org',
      role: 'viewer',
      districts: [],
      enabled: true,
      status: 'CONFIRMED',
      mfa: true,
      lastSignIn: '2024-11-25T01:08:51.123Z',
    });
  });

  it('shows no last sign-in for a user without one, and asks again for the next user', async () => {
    const { directory, calls } = twoUsers((input) =>
      input.Username === 'b@example.org'
        ? { status: 400, body: { __type: 'UserNotFoundException', message: 'User does not exist.' } }
        : { body: { AuthEvents: [] } },
    );
    expect((await directory.list()).map((m) => m.lastSignIn)).toEqual([null, null]);
    expect(calls('AdminListUserAuthEvents')).toHaveLength(2);
  });

  it('stops asking for sign-ins after a refusal (no threat protection; cognito-local has no such call)', async () => {
    const { directory, calls } = twoUsers(() => ({
      status: 400,
      body: { __type: 'com.amazonaws.cognito#UserPoolAddOnNotEnabledException', message: 'not enabled' },
    }));
    expect((await directory.list()).map((m) => m.lastSignIn)).toEqual([null, null]);
    await directory.list();
    expect(calls('AdminListUserAuthEvents')).toHaveLength(1);
  });

  it('answers "exists" for an email already in the pool, by the error type Cognito names', async () => {
    const { directory, calls } = fakeCognito({
      AdminCreateUser: () => ({
        status: 400,
        body: { __type: 'UsernameExistsException', message: 'An account with the given email already exists.' },
      }),
    });
    expect(await directory.invite({ email: 'taken@example.org', role: 'viewer', districts: [] })).toBe('exists');
    expect(calls('AdminAddUserToGroup')).toHaveLength(0);
  });

  it('passes any other error on, with its name and status', async () => {
    const { directory } = fakeCognito({
      AdminCreateUser: () => ({ status: 400, body: { __type: 'InvalidParameterException', message: 'bad' } }),
    });
    await expect(directory.invite({ email: 'new@example.org', role: 'viewer', districts: [] })).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'bad',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('creates a user with their districts: Cognito e-mails the password in AWS, the local pool answers it', async () => {
    const routes: Record<string, Route> = {
      AdminCreateUser: () => ({ body: { User: { Username: 'new@example.org', UserCreateDate: 1732496931 } } }),
      AdminAddUserToGroup: () => ({ body: {} }),
      AdminGetUser: () => ({
        body: { Username: 'new@example.org', UserAttributes: user('new@example.org', 's').Attributes },
      }),
      AdminListGroupsForUser: () => ({ body: { Groups: [{ GroupName: 'coordinator' }] } }),
      AdminListUserAuthEvents: () => ({ body: { AuthEvents: [] } }),
    };
    const invite = { email: 'new@example.org', role: 'coordinator' as const, districts: ['chennai'] };
    const aws = fakeCognito(routes);
    const invited = await aws.directory.invite(invite);
    expect(invited).toMatchObject({ member: { role: 'coordinator', sub: 's' } });
    expect(invited).not.toHaveProperty('temporaryPassword');
    expect(aws.calls('AdminCreateUser')[0]!.input).toEqual({
      UserPoolId: 'ap-south-1_pool',
      Username: 'new@example.org',
      UserAttributes: [
        { Name: 'email', Value: 'new@example.org' },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'custom:districts', Value: 'chennai' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
    expect(aws.calls('AdminAddUserToGroup')[0]!.input).toMatchObject({ GroupName: 'coordinator' });

    const local = fakeCognito(routes, true);
    const result = await local.directory.invite(invite);
    const password = result === 'exists' ? undefined : result.temporaryPassword;
    expect(password).toMatch(/^.{16}$/);
    expect(local.calls('AdminCreateUser')[0]!.input).toMatchObject({
      TemporaryPassword: password,
      MessageAction: 'SUPPRESS',
    });
  });
});
