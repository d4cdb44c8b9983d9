import { type Db, UpdateCommand } from '../lib/db';
import { ignoreConditionFailed } from '../lib/dynamo';
import { readMeta } from './rollups-reader';
import { metaKey, parseMeta, type RollupsMeta } from './rollups-keys';

// The ageing run's marker on META (lambdas/lib/rollups-ageing.ts): `aging_to` announces
// a run toward a day, `aged_through` records the day every counted age bucket is right as of.

export interface AgeingMarker {
  /** Announces a run toward `day`; META as it is then (another run's announcement included). */
  announceAging(day: string): Promise<RollupsMeta>;
  /** Records that every bucket is right as of `day`, unless a later day already is. */
  finishAging(day: string): Promise<void>;
}

export function makeAgeingMarker(db: Db, tableName: string): AgeingMarker {
  const setAgedThrough = (day: string, update: string, condition: string) =>
    ignoreConditionFailed(
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: metaKey,
          UpdateExpression: update,
          ConditionExpression: condition,
          ExpressionAttributeValues: { ':d': day },
        }),
      ),
    );

  return {
    async announceAging(day) {
      const result = await ignoreConditionFailed(
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: metaKey,
            UpdateExpression: 'SET aging_to = :d',
            ConditionExpression:
              'attribute_exists(pk) AND aged_through < :d AND (attribute_not_exists(aging_to) OR aging_to < :d)',
            ExpressionAttributeValues: { ':d': day },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      // Already announced (a run that stopped half-way, or one running now): go on from it.
      return result ? parseMeta(result.Attributes!) : (await readMeta(db, tableName))!;
    },

    async finishAging(day) {
      const finished = await setAgedThrough(
        day,
        'SET aged_through = :d REMOVE aging_to',
        'aged_through < :d AND aging_to = :d',
      );
      if (finished) return;
      // Another run finished this day, or one toward a later day is under way.
      const meta = await readMeta(db, tableName);
      if (!meta || meta.agedThrough >= day) return;
      if (meta.agingTo && meta.agingTo > day) await setAgedThrough(day, 'SET aged_through = :d', 'aged_through < :d');
    },
  };
}
