import { type Db, GetCommand, QueryCommand } from '../lib/db';
import type { BoardEntry } from '../../rules/report-referrals';
import type { ApplicationStatus } from '../../rules/application';
import { type DayCounters, dayKey, type TopRow } from '../../rules/report-counters';
import { batchGetAll, queryAll } from '../lib/dynamo';
import {
  BIRTHDAY_INDEX,
  birthdayPk,
  boardPk,
  campaignDaysPk,
  daysPk,
  metaKey,
  parseBoardItem,
  parseDayRow,
  parseMeta,
  parseState,
  parseTopRow,
  parseTotals,
  RANK_INDEX,
  type RollupState,
  type RollupsMeta,
  topPk,
  type Totals,
  totalsKey,
} from './rollups-keys';

// What reports read from the rollups (lambdas/lib/rollups-report.ts): nothing here writes.

export interface RollupsReader {
  /** META; consistent unless asked otherwise. Undefined before the first write. */
  getMeta(consistent?: boolean): Promise<RollupsMeta | undefined>;
  /**
   * The day rows of the statuses from one day to another (one Query per status): a
   * campaign's own rows when one is named.
   */
  readDays(
    gen: string,
    statuses: readonly ApplicationStatus[],
    from: string,
    to: string,
    campaign?: string | null,
  ): Promise<DayCounters[]>;
  /** The "Top campaigns" rows from one day to another (one Query): a row per campaign and day it had applications. */
  readTop(gen: string, from: string, to: string): Promise<TopRow[]>;
  readTotals(gen: string): Promise<Totals>;
  /** A board's referrers with the most approved recruits, most first (the rank index: eventually consistent). */
  readBoard(gen: string, board: string, limit: number): Promise<BoardEntry[]>;
  /** Some referrers' counts on some boards (exact; a referrer with none on a board is left out). */
  readBoardEntries(gen: string, boards: readonly string[], referrers: readonly string[]): Promise<BoardEntry[]>;
  /** Counted states born on any of the dates, from the birthday index (eventually consistent). */
  statesBornOn(gen: string, birthDates: readonly string[]): Promise<RollupState[]>;
}

/** META, read on its own (the writers and the ageing marker read it too). */
export async function readMeta(db: Db, tableName: string, consistent = true): Promise<RollupsMeta | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: metaKey, ConsistentRead: consistent }));
  return result.Item ? parseMeta(result.Item) : undefined;
}

export function makeRollupsReader(db: Db, tableName: string): RollupsReader {
  return {
    getMeta: (consistent = true) => readMeta(db, tableName, consistent),

    async readDays(gen, statuses, from, to, campaign) {
      const pk = campaign ? campaignDaysPk(gen, campaign) : daysPk(gen);
      const pages = await Promise.all(
        statuses.map((status) =>
          queryAll(db, {
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': pk, ':from': dayKey(status, from), ':to': dayKey(status, to) },
          }),
        ),
      );
      return pages.flat().map(parseDayRow);
    },

    async readTop(gen, from, to) {
      const items = await queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': topPk(gen), ':from': from, ':to': `${to}#\uffff` },
      });
      return items.map(parseTopRow);
    },

    async readBoard(gen, board, limit) {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: RANK_INDEX,
          KeyConditionExpression: '#rank = :rank AND a > :none',
          ExpressionAttributeNames: { '#rank': 'rank' },
          ExpressionAttributeValues: { ':rank': boardPk(gen, board), ':none': 0 },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return Items.map(parseBoardItem);
    },

    async readBoardEntries(gen, boards, referrers) {
      const keys = boards.flatMap((board) => referrers.map((sk) => ({ pk: boardPk(gen, board), sk })));
      return (await batchGetAll(db, tableName, keys)).map(parseBoardItem);
    },

    async readTotals(gen) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: totalsKey(gen) }));
      return parseTotals(Item);
    },

    async statesBornOn(gen, birthDates) {
      const unique = [...new Set(birthDates)];
      const found: RollupState[] = [];
      // A few queries at a time: one partition per month-day, one exact sort key each.
      for (let i = 0; i < unique.length; i += 8) {
        const pages = await Promise.all(
          unique.slice(i, i + 8).map((date) =>
            queryAll(db, {
              TableName: tableName,
              IndexName: BIRTHDAY_INDEX,
              KeyConditionExpression: 'birthday = :b AND birth_date = :d',
              ExpressionAttributeValues: { ':b': birthdayPk(gen, date), ':d': date },
            }),
          ),
        );
        for (const item of pages.flat()) found.push(parseState(item));
      }
      return found;
    },
  };
}
