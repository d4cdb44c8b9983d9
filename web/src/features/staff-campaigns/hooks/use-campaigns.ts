import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CampaignInput, CampaignStatus } from '../../../../../rules/campaigns';
import { ApiError } from '../../../lib/api-client';
import { errorCode, staffKeys } from '../../../lib/staff-queries';
import { getCampaigns } from '../../../lib/staff-campaigns';
import { useStaffSession } from '../../../lib/staff-session';
import { createCampaign, setCampaignStatus } from '../api/campaigns';

/** The campaigns this staff member may see: the same entry the campaign filters read (web/src/lib/staff-campaigns.ts). */
export function useCampaigns() {
  const { getIdToken } = useStaffSession();
  return useQuery({ queryKey: staffKeys.campaigns, queryFn: ({ signal }) => getCampaigns(getIdToken, signal) });
}

/** A failed change's code and its field codes (VALIDATION_FAILED: which field, and why). */
const failureOf = (error: unknown) => ({
  code: errorCode(error),
  fields: error instanceof ApiError ? (error.details.fields ?? {}) : {},
});

/** A new campaign; the list is read again after it. */
export function useCreateCampaign() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (input: CampaignInput) => createCampaign(getIdToken, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.campaigns }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}

/** Pause or resume one campaign; the list is read again after it. */
export function useSetCampaignStatus() {
  const { getIdToken } = useStaffSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, status }: { id: string; status: CampaignStatus }) => setCampaignStatus(getIdToken, id, status),
    onSuccess: () => void client.invalidateQueries({ queryKey: staffKeys.campaigns }),
  });
  return { ...mutation, failure: mutation.isError ? failureOf(mutation.error) : null };
}
