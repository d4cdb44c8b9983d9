import { type Db } from './db';
import { applicationIdOf, applicationKeyPrefix } from '../adapters/application-items';
import { SEQUENCE_WIDTH } from '../adapters/rollups-keys';
import type { SearchIndex } from '../adapters/search-index';
import { scanPages } from './dynamo';

// Builds the search index of the applications the stream has not brought in: after a
// bulk load that bypassed the stream (the benchmark's), or for data stored before the
// index existed (`npm run search:rebuild`). Each application read is applied as the
// oldest possible change: the stream's states, newer by construction, are left alone,
// and a state the rebuild wrote is brought up to date by the stream's next change.

/** Lower than every stream sequence number. */
const BEFORE_THE_STREAM = '0'.padStart(SEQUENCE_WIDTH, '0');
/** Applications indexed at once per scan segment. */
const CONCURRENCY = 8;

export interface SearchRebuildResult {
  readonly scanned: number;
  readonly indexed: number;
  /** Indexed already, by the stream or an earlier rebuild. */
  readonly skipped: number;
}

export async function rebuildSearchIndex(
  db: Db,
  applicationsTable: string,
  index: SearchIndex,
  options: { segments?: number } = {},
): Promise<SearchRebuildResult> {
  const segments = options.segments ?? 4;
  let scanned = 0;
  let indexed = 0;
  let skipped = 0;
  const apply = async (id: string, item: Record<string, unknown>) => {
    // Known to have no state: a conflict is the stream writing it now, and its state wins.
    const result = await index.apply({ id, seq: BEFORE_THE_STREAM, image: item }, { state: undefined });
    if (result === 'applied') indexed += 1;
    else skipped += 1;
  };
  const indexPage = async (page: Record<string, unknown>[]) => {
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of page) {
      const id = applicationIdOf(String(item.pk));
      if (id !== undefined) byId.set(id, item);
    }
    scanned += byId.size;
    const states = await index.states([...byId.keys()]);
    const missing = [...byId].filter(([id]) => states.get(id) === undefined);
    skipped += byId.size - missing.length;
    for (let i = 0; i < missing.length; i += CONCURRENCY) {
      await Promise.all(missing.slice(i, i + CONCURRENCY).map(([id, item]) => apply(id, item)));
    }
  };
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      const pages = scanPages(db, {
        TableName: applicationsTable,
        Segment: segment,
        TotalSegments: segments,
        FilterExpression: 'begins_with(pk, :app)',
        ExpressionAttributeValues: { ':app': applicationKeyPrefix },
      });
      for await (const page of pages) await indexPage(page);
    }),
  );
  return { scanned, indexed, skipped };
}
