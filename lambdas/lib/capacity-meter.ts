import { AsyncLocalStorage } from 'node:async_hooks';
import { type Db } from './db';

// What a piece of work costs in DynamoDB, measured rather than guessed: inside
// `measure`, every command the client sends asks for ReturnConsumedCapacity TOTAL, and
// the items read and the capacity units consumed are added up from the responses.

export interface DynamoUsage {
  readonly requests: number;
  /** Items read: fetched by Get/BatchGet, or evaluated by Query/Scan (ScannedCount). */
  readonly itemsRead: number;
  readonly capacityUnits: number;
}

interface Tally {
  requests: number;
  itemsRead: number;
  capacityUnits: number;
}

type Capacity = { CapacityUnits?: number } | undefined;

function capacityOf(output: Record<string, unknown>): number {
  const consumed = output.ConsumedCapacity as Capacity | Capacity[] | undefined;
  const list = Array.isArray(consumed) ? consumed : [consumed];
  return list.reduce((sum, c) => sum + (c?.CapacityUnits ?? 0), 0);
}

function itemsOf(operation: string, output: Record<string, unknown>): number {
  switch (operation) {
    case 'GetItem':
      return output.Item ? 1 : 0;
    case 'BatchGetItem':
      return Object.values((output.Responses ?? {}) as Record<string, unknown[]>).reduce(
        (n, items) => n + items.length,
        0,
      );
    case 'TransactGetItems':
      return ((output.Responses ?? []) as unknown[]).length;
    case 'Query':
    case 'Scan':
      return Number(output.ScannedCount ?? output.Count ?? 0);
    default:
      return 0;
  }
}

export interface CapacityMeter {
  measure<T>(work: () => Promise<T>): Promise<{ result: T; usage: DynamoUsage }>;
}

const meters = new WeakMap<Db, CapacityMeter>();

/** The meter of a DynamoDB client (added on first use; one per client). */
export function meterCapacity(client: Db): CapacityMeter {
  const known = meters.get(client);
  if (known) return known;
  const storage = new AsyncLocalStorage<Tally>();
  client.intercept(async (operation, input, next) => {
    const tally = storage.getStore();
    if (!tally) return next(input);
    const output = await next({ ...input, ReturnConsumedCapacity: 'TOTAL' });
    tally.requests += 1;
    tally.itemsRead += itemsOf(operation, output);
    tally.capacityUnits += capacityOf(output);
    return output;
  });
  const meter: CapacityMeter = {
    async measure(work) {
      const tally: Tally = { requests: 0, itemsRead: 0, capacityUnits: 0 };
      const result = await storage.run(tally, work);
      return { result, usage: { ...tally } };
    },
  };
  meters.set(client, meter);
  return meter;
}
