import type { IndexChange, SearchIndex } from '../adapters/search-index';
import type { ApplicationChange } from './rollups-stream';

// Applies the applications stream to the search index (lambdas/adapters/search-index.ts):
// the last change of each application in the batch decides its tokens. A write that lost
// a race with another (the state moved between read and write) is retried from a fresh
// read; an application still not applied is reported, and its records come back.

/** Applications indexed at once: each is one read and one transaction. */
const CONCURRENCY = 8;
const ATTEMPTS = 4;

export interface IndexBatchResult {
  readonly applied: number;
  readonly unchanged: number;
  readonly failedIds: ReadonlySet<string>;
}

export async function indexChanges(
  index: SearchIndex,
  changes: readonly ApplicationChange[],
): Promise<IndexBatchResult> {
  const latest = new Map<string, IndexChange>();
  for (const c of changes) {
    const seen = latest.get(c.id);
    if (!seen || c.seq > seen.seq) latest.set(c.id, { id: c.id, seq: c.seq, ...(c.image && { image: c.image }) });
  }
  const queue = [...latest.values()];
  // One read of every state (BatchGetItem), then one write each; a lost race reads again.
  const states = await index.states(queue.map((c) => c.id));
  const failedIds = new Set<string>();
  let applied = 0;
  let unchanged = 0;
  const worker = async () => {
    for (let change = queue.shift(); change; change = queue.shift()) {
      let result = await index.apply(change, { state: states.get(change.id) });
      for (let attempt = 1; result === 'conflict' && attempt < ATTEMPTS; attempt++) result = await index.apply(change);
      if (result === 'applied') applied += 1;
      else if (result === 'unchanged') unchanged += 1;
      else failedIds.add(change.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return { applied, unchanged, failedIds };
}
