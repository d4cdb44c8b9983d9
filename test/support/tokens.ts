import { createRequire } from 'node:module';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { localTotpSecret } from '../../local/cognito';
import { localCredentials, localRegion } from '../../local/dynamodb';
import { totpCode } from '../../local/totp';

/**
 * A real id token from cognito-local through USER_PASSWORD_AUTH, as the SPA obtains it:
 * password, then the authenticator's code (MFA is required; the user's secret comes from
 * the local pool, as the start-up table prints it). The user must be enrolled.
 */
export async function signIn(
  endpoint: string,
  clientId: string,
  user: { email: string; password: string },
): Promise<string> {
  const client = new CognitoIdentityProviderClient({ endpoint, region: localRegion, credentials: localCredentials });
  try {
    const started = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
      }),
    );
    if (started.ChallengeName !== 'SOFTWARE_TOKEN_MFA') {
      throw new Error(`${user.email}: expected the TOTP challenge, got ${started.ChallengeName ?? 'tokens'}`);
    }
    const secret = await localTotpSecret(endpoint, { clientId }, user.email);
    if (!secret) throw new Error(`${user.email} has no authenticator enrolled`);
    const result = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: started.Session,
        ChallengeResponses: { USERNAME: user.email, SOFTWARE_TOKEN_MFA_CODE: totpCode(secret) },
      }),
    );
    const token = result.AuthenticationResult?.IdToken;
    if (!token) throw new Error(`no id token for ${user.email}`);
    return token;
  } finally {
    client.destroy();
  }
}

/** Signs claims with cognito-local's own key (it ships in the npm package). */
export async function signWithLocalPoolKey(claims: Record<string, unknown>): Promise<string> {
  const require = createRequire(import.meta.url);
  const { jwk } = require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: JWK };
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).sign(key);
}

/** Signs claims with a key nobody trusts, under the pool's key id. */
export async function signWithForeignKey(claims: Record<string, unknown>): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).sign(privateKey);
}
