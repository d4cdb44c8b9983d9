import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardAction } from '../../../../../rules/member-card';
import { useStaffSession } from '../../../lib/staff-session';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { cardAction } from '../api/card-action';

/** Revoke or reissue (admins): the details row is read again (its card and audit trail changed; no listing or figure did). */
export function useCardAction(id: string) {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (action: CardAction) => cardAction(getIdToken, id, action),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.application(id) }),
  });
  return { ...mutation, failure: mutation.isError ? errorCode(mutation.error) : null };
}
