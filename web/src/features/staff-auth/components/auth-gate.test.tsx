// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { I18nextProvider } from '../../../i18n/use-translation';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RuntimeConfig, RuntimeConfigContext } from '../../../config';
import { createTestI18n } from '../../../testing/i18n';
import { addStaffTranslations } from '../../../i18n/staff';
import { StaffQueryProvider } from '../../../lib/staff-query-provider';
import { useStaffSession } from '../../../lib/staff-session';
import { jsonResponse, testConfig } from '../../../testing/render';
import { AuthGate } from './auth-gate';

// Amplify is the one thing a browser test cannot easily steer (a Hub event at a chosen
// moment, a stored session that fails to load): its modules are replaced here.
const hub = vi.hoisted(() => {
  type Listener = (capsule: { payload: { event: string } }) => void;
  const listeners = new Set<Listener>();
  const unsubscribed = { count: 0 };
  return {
    listeners,
    unsubscribed,
    listen: (_channel: string, listener: Listener) => {
      listeners.add(listener);
      return () => {
        unsubscribed.count += 1;
        listeners.delete(listener);
      };
    },
    emit: (event: string) => {
      for (const listener of [...listeners]) listener({ payload: { event } });
    },
  };
});
const auth = vi.hoisted(() => ({
  getCurrentUser: vi.fn<() => Promise<{ userId: string; username: string }>>(),
  fetchAuthSession: vi.fn<() => Promise<{ tokens?: { idToken?: { toString(): string } } }>>(),
  signIn: vi.fn<(input: unknown) => Promise<unknown>>(),
  confirmSignIn: vi.fn<(input: unknown) => Promise<unknown>>(),
  signOut: vi.fn<() => Promise<void>>(),
}));
const amplify = vi.hoisted(() => ({ configure: vi.fn(), setTokenRefresher: vi.fn() }));

vi.mock('aws-amplify/utils', () => ({ Hub: { listen: hub.listen } }));
vi.mock('aws-amplify/auth', () => auth);
vi.mock('aws-amplify', () => ({ Amplify: { configure: amplify.configure } }));
vi.mock('aws-amplify/auth/cognito', () => ({
  cognitoUserPoolsTokenProvider: { tokenOrchestrator: { setTokenRefresher: amplify.setTokenRefresher } },
}));

function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'RS256' })}.${part(claims)}.signature`;
}

const meFetch = vi.fn<typeof fetch>();

function renderGate(ui: ReactElement, config: RuntimeConfig = testConfig) {
  const i18n = createTestI18n('en');
  addStaffTranslations(i18n);
  return render(
    <RuntimeConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <StaffQueryProvider>
          <MemoryRouter initialEntries={['/admin']}>{ui}</MemoryRouter>
        </StaffQueryProvider>
      </I18nextProvider>
    </RuntimeConfigContext.Provider>,
  );
}

/** What the staff app would show: who the gate let in. */
function StaffApp() {
  const session = useStaffSession();
  return (
    <p data-testid="staff-app">
      {session.email} ({session.role})
    </p>
  );
}

const gate = () =>
  renderGate(
    <AuthGate>
      <StaffApp />
    </AuthGate>,
  );

function signedInAs(claims: Record<string, unknown>) {
  auth.getCurrentUser.mockResolvedValue({ userId: 'u-1', username: 'u-1' });
  auth.fetchAuthSession.mockResolvedValue({ tokens: { idToken: { toString: () => idToken(claims) } } });
}

beforeEach(() => {
  hub.listeners.clear();
  hub.unsubscribed.count = 0;
  auth.getCurrentUser.mockRejectedValue(
    Object.assign(new Error('User needs to be authenticated'), { name: 'UserUnAuthenticatedException' }),
  );
  auth.fetchAuthSession.mockResolvedValue({});
  auth.signOut.mockImplementation(async () => hub.emit('signedOut'));
  meFetch.mockImplementation(() =>
    Promise.resolve(jsonResponse(200, { email: 'admin@example.com', groups: ['admin'], role: 'admin' })),
  );
  vi.stubGlobal('fetch', meFetch);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('root gate', () => {
  it('shows a full-screen spinner while the stored session is read, then the login screen', async () => {
    let settle: (error: Error) => void = () => undefined;
    auth.getCurrentUser.mockReturnValue(new Promise((_resolve, reject) => (settle = reject)));
    gate();
    expect(screen.getByRole('status').textContent).toContain('Checking your sign-in…');
    expect(screen.queryByLabelText('Email')).toBeNull();

    await act(async () => settle(new Error('not signed in')));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('lets a signed-in staff member in with the role the API grants, sending the ID token', async () => {
    signedInAs({ email: 'admin@example.com', 'cognito:groups': ['admin'] });
    gate();
    expect((await screen.findByTestId('staff-app')).textContent).toBe('admin@example.com (admin)');
    const [url, init] = meFetch.mock.calls[0]!;
    expect(url).toBe('/api/admin/me');
    expect(new Headers(init?.headers).get('authorization')).toMatch(/^Bearer .+\..+\.signature$/);
  });

  it('switches to the app on the Hub signedIn event and back to login on signedOut', async () => {
    gate();
    await screen.findByRole('heading', { level: 1, name: 'Staff sign in' });

    signedInAs({ email: 'admin@example.com' });
    act(() => hub.emit('signedIn'));
    expect(await screen.findByTestId('staff-app')).toBeTruthy();

    act(() => hub.emit('signedOut'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
    expect(screen.queryByTestId('staff-app')).toBeNull();
  });

  it('returns to the login screen when a token refresh fails', async () => {
    signedInAs({ email: 'admin@example.com' });
    gate();
    await screen.findByTestId('staff-app');
    act(() => hub.emit('tokenRefresh_failure'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
  });

  it('releases its Hub subscription when removed', async () => {
    const view = gate();
    await screen.findByRole('heading', { level: 1, name: 'Staff sign in' });
    expect(hub.listeners.size).toBe(1);
    view.unmount();
    expect(hub.listeners.size).toBe(0);
    expect(hub.unsubscribed.count).toBeGreaterThan(0);
  });

  it('tells a signed-in user in no staff group that they have no access, with a Logout', async () => {
    signedInAs({ email: 'nobody@example.com' });
    meFetch.mockImplementation(() =>
      Promise.resolve(
        jsonResponse(403, { error: { code: 'FORBIDDEN', message: 'You do not have permission to do this.' } }),
      ),
    );
    const user = userEvent.setup();
    gate();
    expect(await screen.findByRole('heading', { level: 1, name: 'No access' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('nobody@example.com');
    expect(screen.queryByTestId('staff-app')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
  });

  it('signs out a session the API no longer accepts', async () => {
    signedInAs({ email: 'admin@example.com' });
    meFetch.mockImplementation(() =>
      Promise.resolve(jsonResponse(401, { error: { code: 'UNAUTHORIZED', message: 'Please sign in.' } })),
    );
    gate();
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('offers a retry when the access check fails for another reason', async () => {
    signedInAs({ email: 'admin@example.com' });
    meFetch.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    const user = userEvent.setup();
    gate();
    expect((await screen.findByRole('alert')).textContent).toContain('Your account could not be checked.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('staff-app')).toBeTruthy();
  });
});

describe('Amplify configuration', () => {
  it('points Amplify at cognito-local in local mode, with the REFRESH_TOKEN_AUTH refresher and USER_PASSWORD_AUTH', async () => {
    const local = {
      ...testConfig,
      cognito: { ...testConfig.cognito, userPoolId: 'local_abc', endpoint: 'http://127.0.0.1:9229' },
    };
    auth.signIn.mockRejectedValue(new Error('Incorrect username or password.'));
    const user = userEvent.setup();
    renderGate(
      <AuthGate>
        <StaffApp />
      </AuthGate>,
      local,
    );
    await screen.findByRole('heading', { level: 1, name: 'Staff sign in' });

    expect(amplify.configure).toHaveBeenCalledWith({
      Auth: {
        Cognito: {
          userPoolId: 'local_abc',
          userPoolClientId: 'client',
          userPoolEndpoint: 'http://127.0.0.1:9229',
          loginWith: { email: true },
        },
      },
    });
    expect(amplify.setTokenRefresher).toHaveBeenCalledTimes(1);

    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(auth.signIn).toHaveBeenCalledWith({
      username: 'admin@example.com',
      password: 'wrong',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
  });

  it('refreshes tokens with REFRESH_TOKEN_AUTH against cognito-local', async () => {
    const local = {
      ...testConfig,
      cognito: { ...testConfig.cognito, userPoolId: 'local_def', endpoint: 'http://127.0.0.1:9230' },
    };
    renderGate(
      <AuthGate>
        <StaffApp />
      </AuthGate>,
      local,
    );
    await screen.findByRole('heading', { level: 1, name: 'Staff sign in' });
    const refresher = amplify.setTokenRefresher.mock.calls.at(-1)![0] as (input: {
      tokens: { refreshToken?: string };
      username: string;
    }) => Promise<{
      accessToken: { payload: Record<string, unknown>; toString(): string };
      idToken?: { toString(): string };
      refreshToken?: string;
    }>;
    const access = idToken({ iat: Math.floor(Date.now() / 1000), token_use: 'access' });
    const id = idToken({ email: 'admin@example.com', token_use: 'id' });
    meFetch.mockImplementationOnce(() =>
      Promise.resolve(jsonResponse(200, { AuthenticationResult: { AccessToken: access, IdToken: id } })),
    );

    const tokens = await refresher({ tokens: { refreshToken: 'refresh-1' }, username: 'u-1' });
    const [url, init] = meFetch.mock.calls.at(-1)!;
    expect(url).toBe('http://127.0.0.1:9230');
    expect(new Headers(init?.headers).get('x-amz-target')).toBe('AWSCognitoIdentityProviderService.InitiateAuth');
    expect(JSON.parse(init?.body as string)).toEqual({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: 'client',
      AuthParameters: { REFRESH_TOKEN: 'refresh-1' },
    });
    expect(tokens.accessToken.toString()).toBe(access);
    expect(tokens.accessToken.payload.token_use).toBe('access');
    expect(tokens.idToken?.toString()).toBe(id);
    expect(tokens.refreshToken).toBe('refresh-1');

    meFetch.mockImplementationOnce(() =>
      Promise.resolve(jsonResponse(400, { __type: 'NotAuthorizedException', message: 'Refresh Token has expired' })),
    );
    await expect(refresher({ tokens: { refreshToken: 'old' }, username: 'u-1' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });

  it('uses SRP and the default refresher against Cognito in AWS', async () => {
    const aws = {
      ...testConfig,
      cognito: { region: 'ap-south-1', userPoolId: 'ap-south-1_XYZ', userPoolClientId: 'aws-client' },
    };
    auth.signIn.mockRejectedValue(new Error('Incorrect username or password.'));
    const user = userEvent.setup();
    renderGate(
      <AuthGate>
        <StaffApp />
      </AuthGate>,
      aws,
    );
    await screen.findByRole('heading', { level: 1, name: 'Staff sign in' });
    expect(amplify.configure).toHaveBeenCalledWith({
      Auth: { Cognito: { userPoolId: 'ap-south-1_XYZ', userPoolClientId: 'aws-client', loginWith: { email: true } } },
    });
    expect(amplify.setTokenRefresher).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(auth.signIn).toHaveBeenCalled());
    expect(auth.signIn.mock.calls[0]![0]).toMatchObject({ options: { authFlowType: 'USER_SRP_AUTH' } });
  });
});
