import { setTimeout as sleep } from 'node:timers/promises';
import { type Db } from './db';
import { istDay } from '../../rules/ist';
import { maxDay } from '../../rules/report';
import { CounterDelta, countedCell, countedItemFields } from '../../rules/report-counters';
import { applicationIdOf, applicationKeyPrefix } from '../adapters/application-items';
import { makeRollupsGenerations, type RollupsGenerations } from '../adapters/rollups-generations';
import { MAX_TRANSACTION_ITEMS, type RollupState, type RollupsMeta } from '../adapters/rollups-keys';
import { makeRollupsReader, type RollupsReader } from '../adapters/rollups-reader';
import { makeRollupsWriter, type RollupsWriter } from '../adapters/rollups-writer';
import { scanPages } from './dynamo';

// Recomputes the rollups from the applications table into a new generation, while the
// stream keeps running, then makes it the one reports read.
//
// 1. META.gen_building = new: from now on the stream consumer applies every batch to
//    both generations (a batch that read META before this holds only changes made
//    before it, which the scan below sees). Ages are computed as of today or the
//    ageing marker, re-read every few seconds (see rollups-ageing.ts).
// 2. A consistent parallel scan writes one state per counted application into the new
//    generation, only where the consumer has not written one first (`attribute_not_exists`):
//    the consumer's state is newer or will be brought up to date by the records still
//    coming. Counters of the states written are summed in memory.
// 3. The sums are added to the new generation's day rows. Addition commutes, so the
//    consumer's changes to the same rows (relative to the states it read) may land
//    before or after: once both are in, the rows are the sum of the states.
// 4. META.gen_current = new; once no consumer can still be writing the old generation
//    (the fence), it is deleted.

/** What the rebuild uses: the state writes, the generations, and META as it is. */
export type RebuildStore = RollupsWriter & RollupsGenerations & Pick<RollupsReader, 'getMeta'>;

/** The rebuild's store on the rollups table (the rebuild command's, and the tests'). */
export function rebuildStore(db: Db, tableName: string): RebuildStore {
  const reader = makeRollupsReader(db, tableName);
  return {
    ...makeRollupsWriter(db, tableName),
    ...makeRollupsGenerations(db, tableName),
    getMeta: (consistent) => reader.getMeta(consistent),
  };
}

export interface RebuildDeps {
  readonly store: RebuildStore;
  readonly db: Db;
  readonly applicationsTable: string;
  readonly clock: () => Date;
  readonly log?: (line: string) => void;
}

export interface RebuildOptions {
  /** Parallel scan segments. Default 8. */
  readonly segments?: number;
  /** Take over from a rebuild that did not finish. */
  readonly force?: boolean;
  /** Keep the previous generation (for comparisons) instead of deleting it. */
  readonly keepPrevious?: boolean;
  /** Wait after the switch before deleting the old generation (ROLLUPS_FENCE_SECONDS). */
  readonly fenceMs?: number;
  /** Called between the steps above (tests interleave stream writes there). */
  readonly hooks?: { readonly building?: () => Promise<void>; readonly scanned?: () => Promise<void> };
}

export interface RebuildResult {
  readonly generation: string;
  readonly previous: string;
  /** Application items read. */
  readonly scanned: number;
  /** States written by the rebuild. */
  readonly written: number;
  /** States the stream consumer had written first. */
  readonly skipped: number;
  readonly dayRows: number;
  readonly deletedItems: number;
  readonly ms: number;
}

export class RebuildInProgressError extends Error {
  override name = 'RebuildInProgressError';
}

/** The scan's projection: the key and what countedCell reads. */
const countedFields = ['pk', ...countedItemFields];

interface Copied {
  readonly sums: CounterDelta;
  readonly scanned: number;
  readonly written: number;
  readonly skipped: number;
  /** META as last read during the scan. */
  readonly meta: RollupsMeta;
}

/** Step 2: one state per counted application into the new generation, where the stream has not written one. */
async function copyStates(
  deps: RebuildDeps,
  generation: string,
  startMeta: RollupsMeta,
  segments: number,
): Promise<Copied> {
  const { store, db, clock } = deps;
  const sums = new CounterDelta();
  let meta = startMeta;
  let scanned = 0;
  let written = 0;
  let skipped = 0;
  // META again every few seconds: an ageing run announced meanwhile is seen well within its fence.
  let metaReadAt = Date.now();
  let refreshing: Promise<void> | undefined;
  const freshMeta = async () => {
    if (Date.now() - metaReadAt > 5000) {
      refreshing ??= store.getMeta().then((m) => {
        refreshing = undefined;
        metaReadAt = Date.now();
        if (!m || (m.building !== generation && m.current !== generation)) {
          throw new Error(`Generation ${generation} was replaced by another rebuild`);
        }
        meta = m;
      });
      await refreshing;
    }
    return meta;
  };

  /** Writes the states of some applications (at most one transaction's worth), where absent. */
  const putStates = async (items: Record<string, unknown>[]) => {
    let pending = items;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const { agedThrough, agingTo } = await freshMeta();
      const ageDay = maxDay(istDay(clock()), agedThrough, agingTo);
      const states: RollupState[] = pending.flatMap((item) => {
        const cell = countedCell(item, ageDay);
        const id = applicationIdOf(String(item.pk));
        return cell && id !== undefined ? [{ id, rev: 1, cell, ageDay }] : [];
      });
      if (states.length === 0) return;
      const result = await store.commit(
        generation,
        states.map((next) => ({ next })),
        new Map(),
        new Map(),
      );
      if (result.kind === 'committed') {
        for (const s of states) sums.addCell(s.cell, 1);
        written += states.length;
        return;
      }
      if (result.staleStates.length > 0) {
        const taken = new Set(result.staleStates);
        skipped += taken.size;
        pending = pending.filter((item) => !taken.has(applicationIdOf(String(item.pk)) ?? ''));
        continue;
      }
      if (attempt > 20) throw new Error('Rebuild: a transaction kept conflicting');
      await sleep(Math.random() * Math.min(20 * 2 ** attempt, 1000));
    }
  };

  const scanSegment = async (segment: number) => {
    const pages = scanPages(db, {
      TableName: deps.applicationsTable,
      Segment: segment,
      TotalSegments: segments,
      ConsistentRead: true,
      FilterExpression: 'begins_with(#pk, :app)',
      ProjectionExpression: countedFields.map((_, i) => `#f${i}`).join(', '),
      ExpressionAttributeNames: {
        '#pk': 'pk',
        ...Object.fromEntries(countedFields.map((f, i) => [`#f${i}`, f])),
      },
      ExpressionAttributeValues: { ':app': applicationKeyPrefix },
    });
    for await (const items of pages) {
      scanned += items.length;
      // One META check per transaction leaves 99 states.
      const size = MAX_TRANSACTION_ITEMS - 1;
      const chunks: Record<string, unknown>[][] = [];
      for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
      for (let i = 0; i < chunks.length; i += 2) await Promise.all(chunks.slice(i, i + 2).map(putStates));
    }
  };

  await Promise.all(Array.from({ length: segments }, (_, s) => scanSegment(s)));
  return { sums, scanned, written, skipped, meta };
}

export async function rebuildRollups(deps: RebuildDeps, options: RebuildOptions = {}): Promise<RebuildResult> {
  const { store, clock } = deps;
  const log = deps.log ?? (() => undefined);
  const started = Date.now();
  const before = await store.ensureMeta(istDay(clock()));
  const generation = `r${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const building = await store.startBuilding(generation, options.force ?? false);
  if (!building) {
    throw new RebuildInProgressError(
      `A rebuild is already under way (generation ${before.building ?? '?'}); run again with --force if it was interrupted.`,
    );
  }
  log(`Building generation ${generation} (reports read ${building.current} meanwhile)`);
  await options.hooks?.building?.();

  const { sums, scanned, written, skipped, meta } = await copyStates(deps, generation, building, options.segments ?? 8);
  log(`Scanned ${scanned} applications: ${written} states written, ${skipped} already written by the stream`);
  await options.hooks?.scanned?.();

  const counters = sums.nonZero();
  await store.ensureDays(generation, [...counters.keys()]);
  await store.addCounters(generation, counters, sums.nonZeroStatuses());
  await store.switchTo(generation);
  log(`Reports now read generation ${generation}`);

  let deletedItems = 0;
  const previous = meta.current === generation ? before.current : meta.current;
  // A rebuild taken over (--force) leaves its generation behind: deleted too.
  const abandoned = before.building && before.building !== generation ? [before.building] : [];
  if (!options.keepPrevious) {
    if (options.fenceMs) {
      log(`Waiting ${Math.round(options.fenceMs / 1000)} s for consumers still writing generation ${previous}`);
      await sleep(options.fenceMs);
    }
    for (const gen of [previous, ...abandoned]) {
      const n = await store.deleteGeneration(gen);
      deletedItems += n;
      log(`Deleted ${n} items of generation ${gen}`);
    }
  }
  return {
    generation,
    previous,
    scanned,
    written,
    skipped,
    dayRows: counters.size,
    deletedItems,
    ms: Date.now() - started,
  };
}
