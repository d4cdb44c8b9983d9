import type { Db } from '../lib/db';
import { batchGetAll } from '../lib/dynamo';
import type { ReferrerNames } from '../lib/referrals';
import { applicationKey } from './application-items';

/** The leaderboard's names: each referrer's name and district only, from their application (issue 19). */
export function makeReferrerNames(db: Db, tableName: string): ReferrerNames {
  return async (ids) => {
    const items = await batchGetAll(
      db,
      tableName,
      ids.map((id) => ({ pk: applicationKey(id) })),
    );
    // Whole items (at most ten, a few hundred bytes each): only the name and district leave here.
    return new Map(
      items.map((item) => [
        String(item.id),
        {
          name: typeof item.name === 'string' ? item.name : '',
          ...(typeof item.revenue_district === 'string' && { district: item.revenue_district }),
        },
      ]),
    );
  };
}
