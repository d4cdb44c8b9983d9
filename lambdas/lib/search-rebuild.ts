import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
  db: DynamoDBDocumentClient,
  applicationsTable: string,
  index: SearchIndex,
  options: { segments?: number } = {},
): Promise<SearchRebuildResult> {
  const segments = options.segments ?? 4;
  let scanned = 0;
  let indexed = 0;
  let skipped = 0;
  const apply = async (item: Record<string, unknown>) => {
    const id = applicationIdOf(String(item.pk));
    if (id === undefined) return;
    scanned += 1;
    const result = await index.apply({ id, seq: BEFORE_THE_STREAM, image: item });
    // A conflict is the stream writing the same application now: its state wins.
    if (result === 'applied') indexed += 1;
    else skipped += 1;
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
      for await (const page of pages) {
        for (let i = 0; i < page.length; i += CONCURRENCY) await Promise.all(page.slice(i, i + CONCURRENCY).map(apply));
      }
    }),
  );
  return { scanned, indexed, skipped };
}
