import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApplicationStatus } from '../../../../../rules/application-values';
import type { StatusChangeResponse } from '../../../../../rules/staff-api';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, invalidateAfterChange } from '../../../lib/staff-queries';
import { changeStatus } from '../api/change-status';

export interface ReviewAction<S extends ApplicationStatus | ''> {
  readonly status: S | ApplicationStatus;
  readonly setStatus: (status: S | ApplicationStatus) => void;
  readonly note: string;
  readonly setNote: (note: string) => void;
  readonly busy: boolean;
  /**
   * Sets `status` (with the note, trimmed, when there is one) on `ids`. Resolves with the
   * API's answer, or with `{ failed: code }`; never twice at once (a second call while one
   * runs resolves with undefined).
   */
  readonly apply: (
    ids: readonly string[],
    status: ApplicationStatus,
  ) => Promise<StatusChangeResponse | { failed: string } | undefined>;
}

/**
 * The review action, for one application (its details row) or a selection (the bulk bar):
 * the status and note being chosen, and the change. What was shown is read again when the
 * answer says a row changed or is gone (listings, details, totals, reports); the same
 * status again writes nothing, so nothing is read again.
 */
export function useReviewAction<S extends ApplicationStatus | ''>(initialStatus: S): ReviewAction<S> {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const [status, setStatus] = useState<S | ApplicationStatus>(initialStatus);
  const [note, setNote] = useState('');
  const mutation = useMutation({
    mutationFn: (change: { ids: string[]; status: ApplicationStatus; note?: string }) =>
      changeStatus(getIdToken, change),
    onSuccess: (result) => {
      if (result.changed.length > 0 || result.notFound.length > 0) invalidateAfterChange(client);
    },
  });
  const apply: ReviewAction<S>['apply'] = async (ids, chosen) => {
    if (mutation.isPending) return undefined;
    const trimmed = note.trim();
    try {
      return await mutation.mutateAsync({ ids: [...ids], status: chosen, ...(trimmed && { note: trimmed }) });
    } catch (error) {
      return { failed: errorCode(error) };
    }
  };
  return { status, setStatus, note, setNote, busy: mutation.isPending, apply };
}
