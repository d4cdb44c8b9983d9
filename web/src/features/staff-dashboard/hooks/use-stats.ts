import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { StatsResponse } from '../../../../../rules/report';
import { useStaffSession } from '../../../lib/staff-session';
import { pause, staffKeys } from '../../../lib/staff-queries';
import { getStats } from '../api/get-stats';

/** How often, and for how long, the tiles ask again after a change until the rollups show it. */
const SETTLE_EVERY_MS = 400;
const SETTLE_FOR_MS = 8000;

export interface StatsState {
  readonly stats?: StatsResponse;
  readonly busy: boolean;
  readonly failed: boolean;
}

const same = (a: StatsResponse | undefined, b: StatsResponse | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The all-time totals. The rollups follow the applications' stream, so a change (a status
 * change, one or a selection; an erasure) reaches them a moment after the change's
 * response. The first read is the answer; a read again after a change (the query was
 * invalidated while it held totals) asks again until the totals move away from what was
 * shown before and two reads agree, or a few seconds pass (a change that moves no
 * count). Each read is shown as it comes.
 */
async function readStats(
  read: (signal: AbortSignal) => Promise<StatsResponse>,
  client: QueryClient,
  signal: AbortSignal,
): Promise<StatsResponse> {
  const before = client.getQueryData<StatsResponse>(staffKeys.stats);
  const deadline = Date.now() + SETTLE_FOR_MS;
  let last: StatsResponse | undefined;
  for (;;) {
    const stats = await read(signal);
    if (before === undefined || (!same(stats, before) && same(stats, last)) || Date.now() > deadline) return stats;
    last = stats;
    client.setQueryData(staffKeys.stats, stats);
    await pause(SETTLE_EVERY_MS, signal);
  }
}

export function useStats(): StatsState {
  const { getIdToken } = useStaffSession();
  const query = useQuery({
    queryKey: staffKeys.stats,
    queryFn: ({ client, signal }) => readStats((s) => getStats(getIdToken, s), client, signal),
  });
  return {
    ...(query.data && { stats: query.data }),
    busy: query.isFetching,
    failed: query.isError,
  };
}
