import { setTimeout as sleep } from 'node:timers/promises';
import { type Db } from './db';
import { istDay } from '../../rules/ist';
import { ageBucketOn, birthDatesCrossingBetween, maxDay, minDay } from '../../rules/report';
import { type AgeCorrection, ageCorrection, CounterDelta } from '../../rules/report-counters';
import { makeAgeingMarker, type AgeingMarker } from '../adapters/rollups-ageing-marker';
import { activeGenerations, type RollupsMeta } from '../adapters/rollups-keys';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { makeRollupsWriter, type RollupsWriter } from '../adapters/rollups-writer';

// People grow older: a counted age bucket is right on the day it was computed for. The
// ageing run (daily at 00:00 IST) moves everyone whose birthday crosses a bucket
// boundary since the marker `aged_through` into their new bucket, found through the
// birthday index, and advances the marker. The report corrects on the fly for the days
// the run has not reached yet, from the same index, so figures are exact either way.
//
// Invariant: every state's bucket is right as of `aged_through` or a later day. The
// run first announces `aging_to`; every consumer invocation that starts afterwards
// reads it with META and computes buckets as of that day or later (the rebuild re-reads
// META every few seconds). The run then waits `fenceMs`, longer than a consumer
// invocation may last (and than the birthday index takes to show a write), so that
// every state written with an older day is on the index when it reads it. Each move is
// conditioned on the state's revision: a concurrent stream write wins, and the move is
// recomputed from the state it wrote.

/** What the ageing run uses: the state writes, the birthday index, and the marker on META. */
export type AgeingStore = RollupsWriter & AgeingMarker & Pick<RollupsReader, 'statesBornOn'>;

/** The ageing run's store on the rollups table. */
export function ageingStore(db: Db, tableName: string): AgeingStore {
  const reader = makeRollupsReader(db, tableName);
  return {
    ...makeRollupsWriter(db, tableName),
    ...makeAgeingMarker(db, tableName),
    statesBornOn: (gen, birthDates) => reader.statesBornOn(gen, birthDates),
  };
}

export interface AgeingOptions {
  /** Pause between the announcement and reading the birthday index (see above). */
  readonly fenceMs?: number;
  /** Attempts per application when its state changes under the move. Default 8. */
  readonly attempts?: number;
}

export interface AgeingResult {
  readonly agedThrough: string;
  /** States found on the birthday index for the days aged. */
  readonly checked: number;
  /** States moved to another bucket. */
  readonly moved: number;
}

async function moveAge(store: AgeingStore, gen: string, id: string, day: string, attempts: number): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const state = (await store.getStates(gen, [id])).get(id);
    const cell = state?.cell;
    if (!state || !cell?.birthDate) return false;
    const age = ageBucketOn(cell.birthDate, day);
    if (age === cell.age) return false;
    const next = { ...state, rev: state.rev + 1, cell: { ...cell, age }, ageDay: day };
    const delta = CounterDelta.between(cell, next.cell);
    const counters = delta.nonZero();
    await store.ensureDays(gen, [...counters.keys()]);
    const result = await store.commit(gen, [{ expectRev: state.rev, next }], counters, delta.nonZeroStatuses());
    if (result.kind === 'committed') return true;
    if (result.missingDays.length > 0) await store.ensureDays(gen, result.missingDays, true);
    else await sleep(Math.random() * Math.min(20 * 2 ** attempt, 500));
  }
  throw new Error('Could not move an age bucket: the state kept changing');
}

/** Ages every active generation through today (IST). Idempotent; safe to run twice at once. */
export async function ageRollups(store: AgeingStore, now: Date, options: AgeingOptions = {}): Promise<AgeingResult> {
  const today = istDay(now);
  let meta = await store.ensureMeta(today);
  if (meta.agedThrough >= today) return { agedThrough: meta.agedThrough, checked: 0, moved: 0 };
  meta = await store.announceAging(today);
  if (meta.agedThrough >= today) return { agedThrough: meta.agedThrough, checked: 0, moved: 0 };
  if (options.fenceMs) await sleep(options.fenceMs);

  const dates = birthDatesCrossingBetween(meta.agedThrough, today);
  let checked = 0;
  let moved = 0;
  // A generation being rebuilt is aged too; one that starts after the announcement
  // counts as of the announced day already.
  for (const gen of activeGenerations(meta)) {
    const states = await store.statesBornOn(gen, dates);
    checked += states.length;
    const due = states.filter((s) => s.cell?.birthDate && ageBucketOn(s.cell.birthDate, today) !== s.cell.age);
    for (let i = 0; i < due.length; i += 8) {
      const results = await Promise.all(
        due.slice(i, i + 8).map((s) => moveAge(store, gen, s.id, today, options.attempts ?? 8)),
      );
      moved += results.filter(Boolean).length;
    }
  }
  await store.finishAging(today);
  return { agedThrough: today, checked, moved };
}

/**
 * Corrections a report on `asOf` applies to the counters of generation meta.current:
 * everyone whose bucket may have changed between the marker and that day (in either
 * direction), read from the birthday index. Nothing to read when the run is up to date.
 */
export async function pendingAgeCorrections(
  store: Pick<RollupsReader, 'statesBornOn'>,
  meta: RollupsMeta,
  asOf: string,
): Promise<AgeCorrection[]> {
  const after = minDay(meta.agedThrough, asOf);
  const through = maxDay(meta.agedThrough, meta.agingTo, asOf);
  if (after >= through) return [];
  const states = await store.statesBornOn(meta.current, birthDatesCrossingBetween(after, through));
  return states.flatMap((s) => {
    const correction = s.cell && ageCorrection(s.cell, asOf);
    return correction ? [correction] : [];
  });
}
