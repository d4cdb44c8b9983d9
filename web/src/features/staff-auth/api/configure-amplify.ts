import { Amplify } from 'aws-amplify';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { RuntimeConfig } from '../../../config';

type CognitoConfig = RuntimeConfig['cognito'];

let configured: string | undefined;

/**
 * Amplify against the stage's user pool, from the runtime config. In local mode the
 * pool is cognito-local: its endpoint, and a token refresher that uses
 * REFRESH_TOKEN_AUTH, since cognito-local lacks GetTokensFromRefreshToken, which
 * Amplify's own refresher calls.
 */
export function configureAmplify(cognito: CognitoConfig): void {
  const key = JSON.stringify(cognito);
  if (configured === key) return;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: cognito.userPoolId,
        userPoolClientId: cognito.userPoolClientId,
        ...(cognito.endpoint && { userPoolEndpoint: cognito.endpoint }),
        loginWith: { email: true },
      },
    },
  });
  if (cognito.endpoint) {
    cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokenRefresher(
      localTokenRefresher(cognito.endpoint, cognito.userPoolClientId),
    );
  }
  configured = key;
}

/** cognito-local speaks only USER_PASSWORD_AUTH; Cognito in AWS gets SRP. */
export function authFlowFor(cognito: CognitoConfig): 'USER_PASSWORD_AUTH' | 'USER_SRP_AUTH' {
  return cognito.endpoint ? 'USER_PASSWORD_AUTH' : 'USER_SRP_AUTH';
}

type TokenRefresher = Parameters<typeof cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokenRefresher>[0];
type Jwt = Awaited<ReturnType<TokenRefresher>>['accessToken'];

function decodeJwt(token: string): Jwt {
  const part = token.split('.')[1] ?? '';
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  const payload = JSON.parse(new TextDecoder().decode(bytes)) as Jwt['payload'];
  return { payload, toString: () => token };
}

/** Local mode only: InitiateAuth REFRESH_TOKEN_AUTH, the one refresh cognito-local knows. */
function localTokenRefresher(endpoint: string, clientId: string): TokenRefresher {
  return async ({ tokens, username }) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: JSON.stringify({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: clientId,
        AuthParameters: { REFRESH_TOKEN: tokens.refreshToken ?? '' },
      }),
    });
    const body = (await response.json().catch(() => ({}))) as {
      __type?: string;
      message?: string;
      AuthenticationResult?: { AccessToken?: string; IdToken?: string; RefreshToken?: string };
    };
    const result = body.AuthenticationResult;
    if (!response.ok || !result?.AccessToken) {
      // Amplify clears the session on NotAuthorizedException and reports tokenRefresh_failure.
      const error = new Error(body.message ?? 'Token refresh failed');
      error.name = body.__type?.split('#').pop() ?? 'NotAuthorizedException';
      throw error;
    }
    const accessToken = decodeJwt(result.AccessToken);
    return {
      accessToken,
      ...(result.IdToken && { idToken: decodeJwt(result.IdToken) }),
      clockDrift: (accessToken.payload.iat ?? 0) * 1000 - Date.now(),
      refreshToken: result.RefreshToken ?? tokens.refreshToken,
      username,
    };
  };
}
