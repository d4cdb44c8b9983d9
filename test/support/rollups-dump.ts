import { type Db, GetCommand } from '../../lambdas/lib/db';
import {
  daysPk,
  parseDayRow,
  parseState,
  parseTotals,
  type RollupState,
  statePrefix,
  type Totals,
  totalsKey,
} from '../../lambdas/adapters/rollups-keys';
import { queryAll, scanPages } from '../../lambdas/lib/dynamo';
import type { DayCounters } from '../../rules/report-counters';

export interface GenerationDump {
  readonly days: DayCounters[];
  readonly totals: Totals;
  readonly states: RollupState[];
}

/** Every item of a generation, read consistently, for comparisons (tests, benchmark). */
export async function dumpGeneration(
  db: Db,
  tableName: string,
  gen: string,
): Promise<GenerationDump> {
  const days = (
    await queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': daysPk(gen) },
      ConsistentRead: true,
    })
  ).map(parseDayRow);
  const states: RollupState[] = [];
  const pages = scanPages(db, {
    TableName: tableName,
    FilterExpression: 'begins_with(pk, :p) AND sk = :s',
    ExpressionAttributeValues: { ':p': statePrefix(gen), ':s': 'STATE' },
    ConsistentRead: true,
  });
  for await (const page of pages) states.push(...page.map(parseState));
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: totalsKey(gen) }));
  return { days, totals: parseTotals(Item), states };
}
