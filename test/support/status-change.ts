import type { StatusChangeResponse } from '../../rules/staff-api';

/**
 * Sets a status on `ids` as the staff screen does: a request answers 200 whatever the
 * load, naming as `notDone` the ids it had no time or tries for (nothing written for
 * them), and those are sent again. Answers what all the requests changed, found
 * unchanged or did not find.
 */
export async function sendUntilDone(
  send: (ids: string[]) => Promise<StatusChangeResponse>,
  ids: readonly string[],
  maxRequests = 10,
): Promise<StatusChangeResponse> {
  const total: StatusChangeResponse = { changed: [], unchanged: [], notFound: [], notDone: [] };
  let left = [...ids];
  for (let request = 1; left.length > 0; request++) {
    if (request > maxRequests) throw new Error(`still not done after ${maxRequests} requests: ${left.length} ids`);
    const answer = await send(left);
    total.changed.push(...answer.changed);
    total.unchanged.push(...answer.unchanged);
    total.notFound.push(...answer.notFound);
    left = answer.notDone;
  }
  return total;
}
