import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { useStaffSession } from '../../../lib/staff-session';
import { answerGrievance, closeGrievance, listGrievances } from '../api/grievances';

/** The tickets this staff member may see, not yet closed. */
export function useGrievances() {
  const { getIdToken } = useStaffSession();
  return useQuery({ queryKey: staffKeys.grievances, queryFn: ({ signal }) => listGrievances(getIdToken, signal) });
}

/** A failed change's code and its field codes (VALIDATION_FAILED: which field, and why). */
const failureOf = (error: unknown) => ({
  code: errorCode(error),
  fields: error instanceof ApiError ? (error.details.fields ?? {}) : {},
});

/** Answer one ticket; the list is read again after it. */
export function useAnswerGrievance() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: string }) => answerGrievance(getIdToken, id, answer),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.grievances }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}

/** Close one ticket; the list is read again after it. */
export function useCloseGrievance() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => closeGrievance(getIdToken, id),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.grievances }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}
