// What the load and rally parts share: a visitor's POST from an address of its own, and
// the counts made of what the stack stored once the run is over.
import { request } from 'node:http';
import { type DynamoDBDocumentClient, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { applicationKeyPrefix } from '../lambdas/adapters/application-items';
import type { LocalQueue } from '../local/queue';
import { say } from './figures';

export interface Answer {
  readonly status: number;
  readonly body: { error?: { code?: string }; verificationToken?: unknown };
}

/**
 * A POST from the client address `from` (any 127.x.y.z reaches the server on Linux): the
 * adapter takes the address from the socket, as API Gateway does, so each applicant
 * counts against the per-address limit as a visitor on their own connection would.
 */
export function postFrom(
  apiUrl: string,
  from: string,
  path: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  const url = new URL(path, apiUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Answer['body'] = {};
          try {
            json = JSON.parse(text) as Answer['body'];
          } catch {
            // Not JSON: the status says enough.
          }
          resolve({ status: res.statusCode ?? 0, body: json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every application item (not the numbers' guards): id and number. */
export async function scanApplications(db: DynamoDBDocumentClient, table: string) {
  const items: { id: string; phone: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: 'begins_with(pk, :app)',
        ExpressionAttributeValues: { ':app': applicationKeyPrefix },
        ProjectionExpression: 'id, phone_number',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) items.push({ id: String(item.id), phone: String(item.phone_number) });
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Waits for the outbound queue to drain; answers how many messages it still holds when it did not. */
export async function drainOutbound(outbound: Pick<LocalQueue, 'drain' | 'stats'>, timeoutMs: number): Promise<number> {
  say('waiting for the outbound queue to drain');
  try {
    await outbound.drain(timeoutMs);
    return 0;
  } catch (error) {
    say((error as Error).message);
    const { visible, inFlight } = outbound.stats();
    return visible + inFlight;
  }
}

/** How many values occur more than once, counting each extra occurrence. */
export const extra = (values: readonly string[]) => values.length - new Set(values).size;
export const count = <T>(values: readonly T[], keep: (v: T) => boolean) => values.filter(keep).length;

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}
