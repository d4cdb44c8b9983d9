import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInvite } from '../../../../../rules/staff-admin';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { useStaffSession } from '../../../lib/staff-session';
import { ApiError } from '../../../lib/api-client';
import { changeStaffMember, inviteStaffMember, listStaffMembers, type StaffChange } from '../api/staff-members';

/** The staff pool's members. */
export function useStaffMembers() {
  const { getIdToken } = useStaffSession();
  return useQuery({ queryKey: staffKeys.staff, queryFn: ({ signal }) => listStaffMembers(getIdToken, signal) });
}

/** A failed change's code and its field codes (VALIDATION_FAILED: which field, and why). */
const failureOf = (error: unknown) => ({
  code: errorCode(error),
  fields: error instanceof ApiError ? (error.details.fields ?? {}) : {},
});

/** An invitation; the list is read again after it. */
export function useInviteStaff() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (invite: StaffInvite) => inviteStaffMember(getIdToken, invite),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.staff }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}

/** A change to one member; the list is read again after it. */
export function useChangeStaff() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (change: StaffChange) => changeStaffMember(getIdToken, change),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.staff }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}
