import { useEffect, useState } from 'react';
import type { ApplicationDetail } from '../../../../../rules/staff-api';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../../../lib/staff-session';
import { getApplication } from '../api/get-application';

interface Loaded {
  readonly key: string;
  readonly detail?: ApplicationDetail;
  readonly error?: string;
}

/** The details row's data; `reloadKey` reads it again after a change (the last answer stays shown meanwhile). */
export function useApplicationDetail(id: string, reloadKey: number) {
  const { getIdToken } = useStaffSession();
  const key = `${id}#${reloadKey}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getApplication(getIdToken, id, controller.signal).then(
      (detail) => setLoaded({ key, detail }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ key, error: error instanceof ApiError ? error.code : 'INTERNAL' });
      },
    );
    return () => controller.abort();
  }, [getIdToken, id, key]);

  return {
    loading: loaded?.key !== key,
    detail: loaded?.detail,
    error: loaded?.key === key ? loaded.error : undefined,
  };
}
