import { Hub } from 'aws-amplify/utils';
import { useEffect, useState } from 'react';
import type { RuntimeConfig } from '../../../config';
import { configureAmplify } from '../api/configure-amplify';
import { readCurrentUser } from '../api/session';

export type AuthState =
  { readonly status: 'loading' } | { readonly status: 'signedOut' } | { readonly status: 'signedIn' };

/**
 * The root gate's state (spec 4): loading while the stored session is read, then
 * signed in or out; Amplify's Hub 'auth' events switch it afterwards (sign-in, sign-out,
 * a refresh that failed). The subscription is released on unmount.
 */
export function useAuthState(cognito: RuntimeConfig['cognito']): AuthState {
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    let active = true;
    configureAmplify(cognito);
    const stop = Hub.listen('auth', ({ payload }) => {
      if (!active) return;
      switch (payload.event) {
        case 'signedIn':
          setState({ status: 'signedIn' });
          break;
        case 'signedOut':
        case 'tokenRefresh_failure':
          setState({ status: 'signedOut' });
          break;
        default:
          break;
      }
    });
    void readCurrentUser().then((user) => {
      // A Hub event that came first is newer than what was stored.
      if (active) setState((now) => (now.status === 'loading' ? { status: user ? 'signedIn' : 'signedOut' } : now));
    });
    return () => {
      active = false;
      stop();
    };
  }, [cognito]);

  return state;
}
