import { useEffect, useRef, useState } from 'react';
import type { StatsResponse } from '../../../../../rules/report';
import { useStaffSession } from '../../../lib/staff-session';
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
 * The all-time totals. The rollups follow the applications' stream, so a status change
 * (one or a selection) reaches them a moment after the change's response: after each
 * reload the totals are read again until they move away from what was shown before
 * and two reads agree, or a few seconds pass (a change that moves no count).
 */
export function useStats(reloadKey: number): StatsState {
  const { getIdToken } = useStaffSession();
  const [state, setState] = useState<{ key: number; stats?: StatsResponse; failed: boolean; settled: boolean }>({
    key: -1,
    failed: false,
    settled: false,
  });
  const shown = useRef<StatsResponse | undefined>(undefined);
  useEffect(() => {
    shown.current = state.stats;
  }, [state.stats]);

  useEffect(() => {
    const controller = new AbortController();
    const before = reloadKey === 0 ? undefined : shown.current;
    const deadline = Date.now() + SETTLE_FOR_MS;
    let last: StatsResponse | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const read = () => {
      getStats(getIdToken, controller.signal).then(
        (stats) => {
          const settled = before === undefined || (!same(stats, before) && same(stats, last)) || Date.now() > deadline;
          last = stats;
          setState({ key: reloadKey, stats, failed: false, settled });
          if (!settled) timer = setTimeout(read, SETTLE_EVERY_MS);
        },
        () => {
          if (!controller.signal.aborted)
            setState((now) => ({
              key: reloadKey,
              ...(now.stats && { stats: now.stats }),
              failed: true,
              settled: true,
            }));
        },
      );
    };
    read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [getIdToken, reloadKey]);

  return {
    ...(state.stats && { stats: state.stats }),
    busy: state.key !== reloadKey || !state.settled,
    failed: state.failed,
  };
}
