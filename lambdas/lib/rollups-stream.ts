import { setTimeout as sleep } from 'node:timers/promises';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { istDay } from '../../rules/ist';
import { maxDay } from '../../rules/report';
import { CounterDelta, countedCell, dayKey, sameCell } from '../../rules/report-counters';
import {
  activeGenerations,
  MAX_TERMS_PER_UPDATE,
  termsWeight,
  MAX_TRANSACTION_ITEMS,
  type RollupState,
  SEQUENCE_WIDTH,
} from '../adapters/rollups-keys';
import { applicationIdOf } from '../adapters/application-items';
import type { RollupsWriter, StateWrite } from '../adapters/rollups-writer';

// Applies the applications stream to the rollups, exactly once per change whatever the
// delivery: each application's state remembers the stream sequence number it was last
// counted at, so a record seen again (a retried or replayed batch) changes nothing.
// A batch folds into one transaction per chunk of applications (their states plus one
// update per touched day row); a refused chunk falls back to one transaction per
// application, re-read and retried.

/** One application's change as the stream carried it. */
export interface ApplicationChange {
  readonly id: string;
  /** SequenceNumber padded to SEQUENCE_WIDTH digits: compares as a string. */
  readonly seq: string;
  /** As delivered, for batchItemFailures. */
  readonly sequenceNumber: string;
  readonly removed: boolean;
  /** The new image (absent for REMOVE). */
  readonly image?: Readonly<Record<string, unknown>>;
}

export type ParsedRecord =
  | { readonly kind: 'change'; readonly change: ApplicationChange }
  /** Not an application: guard items (`PHONE#...`) and anything else. */
  | { readonly kind: 'ignored' }
  | { readonly kind: 'invalid'; readonly sequenceNumber?: string; readonly reason: string };

/** Lambda's JSON AttributeValue to a plain value (the fields the rollups read are scalars). */
function plainValue(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) return plainImage(value.M);
  if (value.L !== undefined) return value.L.map(plainValue);
  if (value.SS !== undefined) return [...value.SS];
  if (value.NS !== undefined) return value.NS.map(Number);
  if (value.B !== undefined) return value.B;
  return undefined;
}

function plainImage(image: Readonly<Record<string, AttributeValue>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, plainValue(v)]));
}

export function parseStreamRecord(record: DynamoDBRecord): ParsedRecord {
  const stream = record.dynamodb;
  const pk = stream?.Keys?.pk?.S ?? stream?.NewImage?.pk?.S ?? stream?.OldImage?.pk?.S;
  const id = pk === undefined ? undefined : applicationIdOf(pk);
  if (id === undefined) return { kind: 'ignored' };
  const sequenceNumber = stream?.SequenceNumber;
  if (!sequenceNumber || !/^\d{1,40}$/.test(sequenceNumber)) return { kind: 'invalid', reason: 'sequence number' };
  const seq = sequenceNumber.padStart(SEQUENCE_WIDTH, '0');
  if (record.eventName === 'REMOVE') return { kind: 'change', change: { id, seq, sequenceNumber, removed: true } };
  if (!stream?.NewImage) return { kind: 'invalid', sequenceNumber, reason: 'no new image' };
  return { kind: 'change', change: { id, seq, sequenceNumber, removed: false, image: plainImage(stream.NewImage) } };
}

interface Plan {
  readonly change: ApplicationChange;
  readonly write: StateWrite;
  readonly delta: CounterDelta;
}

/** What to write for a change, given the state read; undefined when there is nothing to do. */
export function planChange(
  change: ApplicationChange,
  state: RollupState | undefined,
  ageDay: string,
): Plan | undefined {
  if (state?.seq !== undefined && state.seq >= change.seq) return undefined; // seen already
  const cell = change.image ? countedCell(change.image, ageDay) : undefined;
  // Counted the same already: nothing moves. Kept for removals without a state, whose
  // tombstone stops an older insert replayed later from counting an erased application.
  if (state && sameCell(state.cell, cell)) return undefined;
  if (!state && !cell && !change.removed) return undefined;
  const next: RollupState = {
    id: change.id,
    rev: (state?.rev ?? 0) + 1,
    seq: change.seq,
    ...(cell && { cell, ageDay }),
  };
  return { change, write: { expectRev: state?.rev, next }, delta: CounterDelta.between(state?.cell, cell) };
}

/** Groups plans into transactions: at most 100 actions, and updates short enough for one expression. */
export function chunkPlans(plans: readonly Plan[]): Plan[][] {
  const chunks: Plan[][] = [];
  let chunk: Plan[] = [];
  let days = new Map<string, Set<number>>();
  const fits = (plan: Plan) => {
    let newDays = 0;
    for (const [key, counters] of plan.delta.days) {
      const seen = days.get(key);
      if (!seen) newDays += 1;
      const terms = termsWeight(new Set([...(seen ?? []), ...counters.keys()]));
      if (terms > MAX_TERMS_PER_UPDATE) return false;
    }
    // States + day rows + the totals.
    return chunk.length + 1 + days.size + newDays + 1 <= MAX_TRANSACTION_ITEMS;
  };
  for (const plan of plans) {
    if (chunk.length > 0 && !fits(plan)) {
      chunks.push(chunk);
      chunk = [];
      days = new Map();
    }
    chunk.push(plan);
    for (const [key, counters] of plan.delta.days) {
      const seen = days.get(key) ?? new Set<number>();
      for (const i of counters.keys()) seen.add(i);
      days.set(key, seen);
    }
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

const primaryDay = (plan: Plan) => {
  const cell = plan.write.next.cell;
  return cell ? dayKey(cell.status, cell.day) : (plan.delta.touchedDays()[0] ?? '');
};

const jitter = (attempt: number) => Math.random() * Math.min(20 * 2 ** attempt, 500);

export interface ApplyOptions {
  /** Attempts per application after its chunk was refused. Default 8. */
  readonly attempts?: number;
}

export interface ApplyResult {
  /** Applications whose state changed (per generation). */
  readonly applied: number;
  /** Applications with nothing to do (seen already, or counted the same). */
  readonly unchanged: number;
  /** Applications that could not be applied: their records are reported as failures. */
  readonly failedIds: ReadonlySet<string>;
}

async function commitOne(
  store: RollupsWriter,
  gen: string,
  change: ApplicationChange,
  ageDay: string,
  attempts: number,
): Promise<'applied' | 'unchanged' | 'failed'> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const state = (await store.getStates(gen, [change.id])).get(change.id);
    const plan = planChange(change, state, ageDay);
    if (!plan) return 'unchanged';
    const counters = plan.delta.nonZero();
    await store.ensureDays(gen, [...counters.keys()]);
    const result = await store.commit(gen, [plan.write], counters, plan.delta.nonZeroStatuses());
    if (result.kind === 'committed') return 'applied';
    if (result.missingDays.length > 0) await store.ensureDays(gen, result.missingDays, true);
    else await sleep(jitter(attempt));
  }
  return 'failed';
}

async function applyToGeneration(
  store: RollupsWriter,
  gen: string,
  changes: readonly ApplicationChange[],
  ageDay: string,
  attempts: number,
): Promise<{ applied: number; unchanged: number; failed: string[] }> {
  const states = await store.getStates(
    gen,
    changes.map((c) => c.id),
  );
  const plans: Plan[] = [];
  for (const change of changes) {
    const plan = planChange(change, states.get(change.id), ageDay);
    if (plan) plans.push(plan);
  }
  let applied = 0;
  let unchanged = changes.length - plans.length;
  const failed: string[] = [];
  plans.sort((a, b) => primaryDay(a).localeCompare(primaryDay(b)));
  for (const chunk of chunkPlans(plans)) {
    const delta = new CounterDelta();
    for (const plan of chunk) delta.merge(plan.delta);
    const counters = delta.nonZero();
    await store.ensureDays(gen, [...counters.keys()]);
    const commit = () =>
      store.commit(
        gen,
        chunk.map((p) => p.write),
        counters,
        delta.nonZeroStatuses(),
      );
    let result = await commit();
    if (result.kind === 'refused' && result.missingDays.length > 0 && result.staleStates.length === 0) {
      await store.ensureDays(gen, result.missingDays, true);
      result = await commit();
    }
    if (result.kind === 'committed') {
      applied += chunk.length;
      continue;
    }
    // Someone else wrote some of these states, or a conflict: one application at a time.
    for (const plan of chunk) {
      const outcome = await commitOne(store, gen, plan.change, ageDay, attempts);
      if (outcome === 'applied') applied += 1;
      else if (outcome === 'unchanged') unchanged += 1;
      else failed.push(plan.change.id);
    }
  }
  return { applied, unchanged, failed };
}

/**
 * Applies changes to every active generation of META as read at the start. The age
 * buckets are computed as of today (IST), or the ageing marker's day when it is ahead
 * (an ageing run has announced it): no bucket older than the marker is written by an
 * invocation that starts after the announcement (see rollups-ageing.ts).
 */
export async function applyChanges(
  store: RollupsWriter,
  changes: readonly ApplicationChange[],
  now: Date,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const attempts = options.attempts ?? 8;
  // The last change of each application decides what it counts as.
  const latest = new Map<string, ApplicationChange>();
  for (const change of changes) {
    const seen = latest.get(change.id);
    if (!seen || change.seq > seen.seq) latest.set(change.id, change);
  }
  if (latest.size === 0) return { applied: 0, unchanged: 0, failedIds: new Set() };
  const today = istDay(now);
  const meta = await store.ensureMeta(today);
  const ageDay = maxDay(today, meta.agedThrough, meta.agingTo);
  let applied = 0;
  let unchanged = 0;
  const failedIds = new Set<string>();
  for (const gen of activeGenerations(meta)) {
    const result = await applyToGeneration(store, gen, [...latest.values()], ageDay, attempts);
    applied += result.applied;
    unchanged += result.unchanged;
    for (const id of result.failed) failedIds.add(id);
  }
  return { applied, unchanged, failedIds };
}
