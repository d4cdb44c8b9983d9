import { useEffect, useState } from 'react';
import { getHealth } from '../api/get-health';

export type HealthState = 'loading' | 'ok' | 'error';

/** Asks GET /api/health once on mount. */
export function useHealth(): HealthState {
  const [state, setState] = useState<HealthState>('loading');
  useEffect(() => {
    const controller = new AbortController();
    getHealth(controller.signal).then(
      () => setState('ok'),
      () => {
        if (!controller.signal.aborted) setState('error');
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
