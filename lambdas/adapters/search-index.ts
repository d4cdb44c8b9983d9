import type { BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, type Db, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '../lib/db';
import * as v from 'valibot';
import { nameWords, nationalNumber, type SearchQuery, wordsMatch } from '../../rules/search';
import { applicationKey } from './application-items';

// The search index's table (issue 18; contracts/table-definitions.ts): the one owner of
// its keys. Each application has a token per name word, one for its number and one for
// its email, each carrying what the dashboard filters by (status, district, sort key) and
// the name's words, so that a query is answered from the tokens of one key range alone:
// - a word: `N#<its first letter>`, sort key `<word>#<submitted_sort>`; a prefix of a
//   word reads `begins_with(sk, prefix)`;
// - the number: `P#<its last 4 digits>`, sort key `<the 6 digits before, reversed>#…`;
//   the last k digits (4 ≤ k ≤ 10) read `begins_with(sk, <the k − 4 before them, reversed>)`;
// - the email: `E#<address in lower case>`, sort key `#<submitted_sort>`.
// A state item per application (`APP#<id>`, `STATE`) lists its tokens and the stream
// sequence number they reflect: a change is applied once, older ones never over newer.

/** What a token tells about its application: enough to filter, count and sort without reading it. */
export interface SearchEntry {
  readonly id: string;
  /** The application's `submitted_sort` (`<ISO time>#<id>`). */
  readonly sort: string;
  readonly status: string;
  readonly district?: string;
  /** The name's folded words, for queries of several words. */
  readonly words: readonly string[];
}

interface TokenKey {
  readonly pk: string;
  readonly sk: string;
}

const STATE_SK = 'STATE';
const stateKey = (id: string) => ({ pk: applicationKey(id), sk: STATE_SK });
const reverse = (s: string) => [...s].reverse().join('');
const firstLetter = (word: string) => [...word][0] ?? '';

/** The application fields the index is built from, as the stream's image holds them. */
const imageSchema = v.looseObject({
  id: v.string(),
  name: v.string(),
  phone_number: v.pipe(v.string(), v.regex(/^\d{12}$/)),
  email: v.optional(v.nullable(v.string())),
  submitted_sort: v.string(),
  application_status: v.string(),
  revenue_district: v.optional(v.nullable(v.string())),
});

/** The entry and tokens of an application image; none for an image that is not one. */
export function indexEntryOf(
  image: Readonly<Record<string, unknown>>,
): { entry: SearchEntry; tokens: TokenKey[] } | undefined {
  const parsed = v.safeParse(imageSchema, image);
  if (!parsed.success) return undefined;
  const a = parsed.output;
  const words = nameWords(a.name);
  const entry: SearchEntry = {
    id: a.id,
    sort: a.submitted_sort,
    status: a.application_status,
    ...(a.revenue_district && { district: a.revenue_district }),
    words,
  };
  const national = nationalNumber(a.phone_number);
  const tokens: TokenKey[] = [
    ...words.map((w) => ({ pk: `N#${firstLetter(w)}`, sk: `${w}#${a.submitted_sort}` })),
    { pk: `P#${national.slice(-4)}`, sk: `${reverse(national.slice(0, -4))}#${a.submitted_sort}` },
  ];
  const email = a.email?.trim().toLowerCase();
  if (email) tokens.push({ pk: `E#${email}`, sk: `#${a.submitted_sort}` });
  return { entry, tokens };
}

/** The key range a query reads: one partition, and a prefix of its sort keys. */
function rangeOf(query: SearchQuery): { pk: string; prefix: string } {
  switch (query.kind) {
    case 'phone':
      return { pk: `P#${query.digits.slice(-4)}`, prefix: reverse(query.digits.slice(0, -4)) };
    case 'email':
      return { pk: `E#${query.email}`, prefix: '#' };
    case 'name': {
      // The longest word reads the fewest tokens; the others are checked on its entries.
      const word = [...query.words].sort((a, b) => b.length - a.length)[0]!;
      return { pk: `N#${firstLetter(word)}`, prefix: word };
    }
  }
}

const tokenId = (t: TokenKey) => `${t.pk}\n${t.sk}`;
const tokenOf = (id: string): TokenKey => {
  const [pk = '', sk = ''] = id.split('\n');
  return { pk, sk };
};

const stateSchema = v.object({
  seq: v.string(),
  tokens: v.array(v.string()),
  entry: v.optional(v.unknown()),
});
/** An application's state in the index; undefined when it has none. */
type IndexState = v.InferOutput<typeof stateSchema> | undefined;
/** A state that is not ours is rewritten whole (its tokens cannot be known: none are deleted). */
const parseState = (item: Record<string, unknown> | undefined): IndexState => {
  if (!item) return undefined;
  const parsed = v.safeParse(stateSchema, item);
  return parsed.success ? parsed.output : { seq: '', tokens: [] };
};
/** Keys of one BatchGetItem (DynamoDB's limit). */
const BATCH_GET_KEYS = 100;

/** One application's change as the stream carried it (see lambdas/lib/rollups-stream.ts). */
export interface IndexChange {
  readonly id: string;
  /** Sequence number padded to a fixed width: compares as a string. */
  readonly seq: string;
  /** The new image; undefined when the application was removed. */
  readonly image?: Readonly<Record<string, unknown>>;
}

type IndexResult = 'applied' | 'unchanged' | 'conflict';

export class SearchTooBroadError extends Error {
  override name = 'SearchTooBroadError';
}

export interface SearchIndex {
  /** The states of some applications, read together (a batch's, a scan page's). */
  states(ids: readonly string[]): Promise<Map<string, IndexState>>;
  /**
   * Brings one application's tokens to its change, unless a newer one is applied already.
   * `known`: its state as just read with `states` (otherwise it is read here).
   */
  apply(change: IndexChange, known?: { state: IndexState }): Promise<IndexResult>;
  /** Every entry a query matches (a name's other words checked), at most `cap` tokens read. */
  find(query: SearchQuery, cap: number): Promise<{ entries: SearchEntry[]; scanned: number }>;
}

const sameEntry = (a: unknown, b: SearchEntry | undefined) => JSON.stringify(a) === JSON.stringify(b);

export function makeSearchIndex(db: Db, tableName: string): SearchIndex {
  const readState = async (id: string) =>
    parseState((await db.send(new GetCommand({ TableName: tableName, Key: stateKey(id), ConsistentRead: true }))).Item);

  return {
    async states(ids) {
      const found = new Map<string, IndexState>(ids.map((id) => [id, undefined]));
      for (let i = 0; i < ids.length; i += BATCH_GET_KEYS) {
        let keys: Record<string, unknown>[] | undefined = ids.slice(i, i + BATCH_GET_KEYS).map(stateKey);
        for (let attempt = 0; keys && keys.length > 0; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
          const result: BatchGetCommandOutput = await db.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) found.set(String(item.pk).slice(4), parseState(item));
          keys = result.UnprocessedKeys?.[tableName]?.Keys;
        }
      }
      return found;
    },

    async apply(change, known) {
      const state = known ? known.state : await readState(change.id);
      if (state && state.seq >= change.seq) return 'unchanged';
      const built = change.image ? indexEntryOf(change.image) : undefined;
      const next = built?.tokens.map(tokenId) ?? [];
      const old = state?.tokens ?? [];
      const guard = state
        ? { ConditionExpression: 'seq = :seen', ExpressionAttributeValues: { ':seen': state.seq } }
        : { ConditionExpression: 'attribute_not_exists(pk)' };
      try {
        if (state && sameEntry(state.entry, built?.entry) && old.join('\0') === next.join('\0')) {
          // Nothing the index holds changes (a note, a field it does not keep): the sequence alone moves.
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: stateKey(change.id),
              UpdateExpression: 'SET seq = :seq',
              ConditionExpression: guard.ConditionExpression,
              ExpressionAttributeValues: { ':seq': change.seq, ':seen': state.seq },
            }),
          );
          return 'applied';
        }
        const keep = new Set(next);
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  // A removed application keeps a tombstone (its id and sequence number
                  // only), so that an older record replayed later is not applied over it.
                  Item: { ...stateKey(change.id), seq: change.seq, tokens: next, ...(built && { entry: built.entry }) },
                  ...guard,
                },
              },
              ...old.filter((t) => !keep.has(t)).map((t) => ({ Delete: { TableName: tableName, Key: tokenOf(t) } })),
              ...(built?.tokens ?? []).map((t) => ({ Put: { TableName: tableName, Item: { ...t, ...built!.entry } } })),
            ],
          }),
        );
        return 'applied';
      } catch (error) {
        const name = (error as { name?: unknown }).name;
        if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') return 'conflict';
        throw error;
      }
    },

    async find(query, cap) {
      const { pk, prefix } = rangeOf(query);
      const entries: SearchEntry[] = [];
      let scanned = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk, ...(prefix && { ':prefix': prefix }) },
            ExpressionAttributeNames: { '#status': 'status', '#sort': 'sort' },
            ProjectionExpression: 'id, #sort, #status, district, words',
            ExclusiveStartKey: start,
          }),
        );
        scanned += page.ScannedCount ?? 0;
        if (scanned > cap) throw new SearchTooBroadError(`more than ${cap} tokens match`);
        for (const item of page.Items ?? []) {
          const entry = item as unknown as SearchEntry;
          if (query.kind !== 'name' || wordsMatch(query.words, entry.words ?? [])) entries.push(entry);
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return { entries, scanned };
    },
  };
}
