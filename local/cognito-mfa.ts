import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CognitoError, InvalidParameterError, NotAuthorizedError } from 'cognito-local/lib/errors';
import type { Route } from 'cognito-local/lib/server/Router';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import { generateSecret, verify } from 'cognito-local/lib/services/totp';
import type { User, UserPoolService } from 'cognito-local/lib/services/userPoolService';

// What cognito-local 5.3 lacks for a pool whose MFA is required (MfaConfiguration ON),
// answered as Cognito answers it:
// - a user with no authenticator gets the MFA_SETUP challenge after the password (or the
//   new password), not NotAuthorizedException;
// - AssociateSoftwareToken and VerifySoftwareToken with that challenge's Session (it
//   takes only an access token, which a user in MFA_SETUP does not have yet), a mismatch
//   answered with EnableSoftwareTokenMFAException;
// - RespondToAuthChallenge MFA_SETUP, which then issues the tokens;
// - a disabled user can neither sign in nor refresh (cognito-local lets both through);
// - a temporary password is checked before the new-password challenge, and that
//   challenge's session too (cognito-local asks any caller for a new password);
// - AdminListGroupsForUser by email finds the user's groups (cognito-local compares the
//   groups' members, stored by the user's sub, with the email): the staff command's
//   `list` and `reset-mfa` read them.
// Everything else, including the SOFTWARE_TOKEN_MFA challenge of an enrolled user and its
// TOTP check (RFC 6238, SHA-1, 6 digits, 30 s steps, one step either side), is
// cognito-local's own.

/** How long a challenge's session lasts, as Cognito's default (three minutes). */
const SESSION_MS = 3 * 60_000;

interface SetupSession {
  readonly clientId: string;
  readonly username: string;
  /** What the session allows next: a new password, enrolment, or (after a right first code) the tokens. */
  readonly stage: 'newPassword' | 'setup' | 'verified';
  readonly expires: number;
}

interface AuthRequest {
  ClientId: string;
  AuthFlow?: string;
  AuthParameters?: Record<string, string>;
  ChallengeName?: string;
  ChallengeResponses?: Record<string, string>;
  Session?: string;
  ClientMetadata?: Record<string, string>;
}

interface SoftwareTokenRequest {
  AccessToken?: string;
  Session?: string;
  UserCode?: string;
  FriendlyDeviceName?: string;
}

const hasTotp = (user: User) =>
  user.SoftwareTokenMfaConfiguration?.Verified === true && (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');

const mfaRequired = (pool: UserPoolService) => pool.options.MfaConfiguration === 'ON';

/** The extra and replaced targets, in front of cognito-local's router (`base`). */
export function mfaTargets(services: Services, base: (target: string) => Route): Record<string, Route> {
  const { cognito, clock, tokenGenerator } = services;
  const sessions = new Map<string, SetupSession>();
  /** cognito-local's own answer to the request. */
  const pass = (target: string, ctx: Context, req: unknown): Promise<unknown> => base(target)(ctx, req);

  const openSession = (session: Omit<SetupSession, 'expires'>): string => {
    const now = Date.now();
    for (const [id, s] of sessions) if (s.expires < now) sessions.delete(id);
    const id = randomBytes(48).toString('base64');
    sessions.set(id, { ...session, expires: now + SESSION_MS });
    return id;
  };
  /** Each step spends its session and hands out the next, as Cognito does. */
  const takeSession = (id: string | undefined, stages: SetupSession['stage'][], clientId?: string): SetupSession => {
    const session = id ? sessions.get(id) : undefined;
    if (id) sessions.delete(id);
    const wrong = !session || !stages.includes(session.stage) || (clientId && session.clientId !== clientId);
    if (wrong || session.expires < Date.now()) {
      throw new NotAuthorizedError('Invalid session for the user, session is expired.');
    }
    return session;
  };

  const setupChallenge = (clientId: string, user: User) => ({
    ChallengeName: 'MFA_SETUP',
    ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: user.Username },
    Session: openSession({ clientId, username: user.Username, stage: 'setup' }),
  });
  const codeChallenge = (user: User) => ({
    ChallengeName: 'SOFTWARE_TOKEN_MFA',
    ChallengeParameters: { USER_ID_FOR_SRP: user.Username },
    Session: randomBytes(48).toString('base64'),
  });

  const userOf = async (ctx: Context, clientId: string, username: string) => {
    const pool = await cognito.getUserPoolForClientId(ctx, clientId);
    const user = await pool.getUserByUsername(ctx, username);
    if (!user) throw new NotAuthorizedError();
    return { pool, user };
  };

  return {
    InitiateAuth: async (ctx, req: AuthRequest) => {
      const pool = await cognito.getUserPoolForClientId(ctx, req.ClientId);
      if (req.AuthFlow === 'USER_PASSWORD_AUTH') {
        const user = await pool.getUserByUsername(ctx, req.AuthParameters?.USERNAME ?? '');
        const passwordRight = user !== null && user.Password === req.AuthParameters?.PASSWORD;
        if (user?.UserStatus === 'FORCE_CHANGE_PASSWORD' && !passwordRight) throw new NotAuthorizedError();
        if (passwordRight && !user.Enabled) throw new NotAuthorizedError('User is disabled.');
        if (passwordRight && user.UserStatus === 'CONFIRMED' && mfaRequired(pool) && !hasTotp(user)) {
          return setupChallenge(req.ClientId, user);
        }
        const answer = (await pass('InitiateAuth', ctx, req)) as { ChallengeName?: string; Session?: string };
        if (user && answer.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
          return { ...answer, Session: openSession({ clientId: req.ClientId, username: user.Username, stage: 'newPassword' }) };
        }
        return answer;
      } else if (req.AuthFlow === 'REFRESH_TOKEN_AUTH' || req.AuthFlow === 'REFRESH_TOKEN') {
        const user = await pool.getUserByRefreshToken(ctx, req.AuthParameters?.REFRESH_TOKEN ?? '');
        if (user && !user.Enabled) throw new NotAuthorizedError('User is disabled.');
      }
      return pass('InitiateAuth', ctx, req);
    },

    RespondToAuthChallenge: async (ctx, req: AuthRequest) => {
      if (req.ChallengeName === 'MFA_SETUP') {
        const session = takeSession(req.Session, ['verified'], req.ClientId);
        const { pool, user } = await userOf(ctx, req.ClientId, session.username);
        const client = await cognito.getAppClient(ctx, req.ClientId);
        if (!client || !user.Enabled) throw new NotAuthorizedError();
        const groups = await pool.listUserGroupMembership(ctx, user);
        const tokens = await tokenGenerator.generate(ctx, user, groups, client, req.ClientMetadata, 'Authentication');
        await pool.storeRefreshToken(ctx, tokens.RefreshToken, user);
        return { ChallengeParameters: {}, AuthenticationResult: tokens };
      }
      if (req.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
        const { pool, user } = await userOf(ctx, req.ClientId, takeSession(req.Session, ['newPassword'], req.ClientId).username);
        if (mfaRequired(pool)) {
          const password = req.ChallengeResponses?.NEW_PASSWORD;
          if (!password) throw new InvalidParameterError('Missing required parameter NEW_PASSWORD');
          if (user.UserStatus !== 'FORCE_CHANGE_PASSWORD') throw new NotAuthorizedError();
          const confirmed: User = { ...user, Password: password, UserStatus: 'CONFIRMED', UserLastModifiedDate: clock.get() };
          await pool.saveUser(ctx, confirmed);
          // The password is set; the tokens wait for the second factor.
          return hasTotp(confirmed) ? codeChallenge(confirmed) : setupChallenge(req.ClientId, confirmed);
        }
      }
      return pass('RespondToAuthChallenge', ctx, req);
    },

    AdminListGroupsForUser: async (ctx, req: { UserPoolId: string; Username: string }) => {
      const pool = await cognito.getUserPool(ctx, req.UserPoolId);
      const user = await pool.getUserByUsername(ctx, req.Username);
      return pass('AdminListGroupsForUser', ctx, user ? { ...req, Username: user.Username } : req);
    },

    AssociateSoftwareToken: async (ctx, req: SoftwareTokenRequest) => {
      if (!req.Session || req.AccessToken) return pass('AssociateSoftwareToken', ctx, req);
      const session = takeSession(req.Session, ['setup']);
      const { pool, user } = await userOf(ctx, session.clientId, session.username);
      // A new secret each time: an enrolment abandoned half-way leaves nothing that works.
      const secret = generateSecret();
      await pool.saveUser(ctx, { ...user, SoftwareTokenMfaConfiguration: { Secret: secret, Verified: false } });
      return { SecretCode: secret, Session: openSession({ ...session, stage: 'setup' }) };
    },

    VerifySoftwareToken: async (ctx, req: SoftwareTokenRequest) => {
      if (!req.Session || req.AccessToken) return pass('VerifySoftwareToken', ctx, req);
      const session = takeSession(req.Session, ['setup']);
      const { pool, user } = await userOf(ctx, session.clientId, session.username);
      const secret = user.SoftwareTokenMfaConfiguration?.Secret;
      if (!secret) throw new InvalidParameterError('User has not associated a software token');
      if (!req.UserCode || !verify(secret, req.UserCode)) {
        // Cognito's answer to a wrong first code; the session stays usable for another try.
        sessions.set(req.Session, session);
        throw new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch');
      }
      const methods = new Set([...(user.UserMFASettingList ?? []), 'SOFTWARE_TOKEN_MFA']);
      await pool.saveUser(ctx, {
        ...user,
        SoftwareTokenMfaConfiguration: {
          Secret: secret,
          Verified: true,
          ...(req.FriendlyDeviceName && { FriendlyDeviceName: req.FriendlyDeviceName }),
        },
        UserMFASettingList: [...methods],
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
      });
      return { Status: 'SUCCESS', Session: openSession({ ...session, stage: 'verified' }) };
    },
  };
}

type Handler = (req: IncomingMessage & { query: Record<string, unknown> }, res: ServerResponse & { json(body: unknown): void; status(code: number): { json(body: unknown): void } }) => void;

/**
 * Local mode only: `GET /__local/totp-secret?userPoolId=…&username=…` (or `clientId=…`) answers an enrolled
 * user's TOTP secret, so that the start-up table can print the seeded users' secrets
 * again after a restart and the tests can answer the code challenge (as the outbox shows
 * the public flow's codes). cognito-local's signing key is public anyway: nothing here is
 * trusted outside this machine.
 */
export function localSecretRoute(app: { get(path: string, handler: Handler): void }, services: Services, ctx: Context): void {
  app.get('/__local/totp-secret', (req, res) => {
    const param = (name: string) => (typeof req.query[name] === 'string' ? req.query[name] : '');
    const username = param('username');
    void (async () => {
      const pool = param('clientId')
        ? await services.cognito.getUserPoolForClientId(ctx, param('clientId'))
        : await services.cognito.getUserPool(ctx, param('userPoolId'));
      const user = await pool.getUserByUsername(ctx, username);
      if (!user || !hasTotp(user)) return res.status(404).json({ message: 'no enrolled authenticator' });
      res.json({ secret: user.SoftwareTokenMfaConfiguration?.Secret });
    })().catch((error: unknown) => res.status(400).json({ message: (error as Error).message }));
  });
}
