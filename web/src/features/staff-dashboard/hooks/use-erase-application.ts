import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, invalidateAfterChange } from '../../../lib/staff-queries';
import { eraseApplication } from '../api/erase-application';

/** Erasure on request (admins): afterwards the listings, details, totals and reports are read again. */
export function useEraseApplication() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => eraseApplication(getIdToken, id),
    onSuccess: () => invalidateAfterChange(client),
  });
  return { ...mutation, failure: mutation.isError ? errorCode(mutation.error) : null };
}
