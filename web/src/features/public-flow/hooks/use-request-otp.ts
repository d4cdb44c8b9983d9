import { useCallback, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { requestOtp } from '../api/request-otp';

export type RequestOtpState =
  | { readonly status: 'idle' }
  | { readonly status: 'sending' }
  | { readonly status: 'sent'; readonly phone: string }
  | { readonly status: 'failed'; readonly code: string };

export function useRequestOtp() {
  const [state, setState] = useState<RequestOtpState>({ status: 'idle' });
  const send = useCallback(async (phone: string) => {
    setState({ status: 'sending' });
    try {
      await requestOtp({ phone });
      setState({ status: 'sent', phone });
    } catch (error) {
      setState({ status: 'failed', code: error instanceof ApiError ? error.code : 'INTERNAL' });
    }
  }, []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, send, reset };
}
