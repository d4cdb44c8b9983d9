import type { SearchIndex } from '../../lambdas/adapters/search-index';

/**
 * A search index that keeps nothing, for the stream consumer of tests about the rollups
 * alone: indexing thousands of applications one transaction each would double their
 * stream's work on DynamoDB Local and prove nothing there. The index has tests of its
 * own (test/integration/search.test.ts, search-index.test.ts).
 */
export const noSearchIndex: SearchIndex = {
  states: (ids) => Promise.resolve(new Map(ids.map((id) => [id, undefined]))),
  apply: () => Promise.resolve('unchanged'),
  find: () => Promise.resolve({ entries: [], scanned: 0 }),
};
