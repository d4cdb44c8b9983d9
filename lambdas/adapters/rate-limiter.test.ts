import { afterEach, describe, expect, it } from 'vitest';
import { dbDouble, serviceError } from '../../test/support/db-double';
import { GetCommand, TransactWriteCommand } from '../lib/db';
import { CONFLICT_ATTEMPTS, type Limit, makeRateLimiter, slidingRetryAt } from './rate-limiter';

// DynamoDB Local queues concurrent transactions instead of cancelling them, so it never
// answers TransactionConflict; the real service does, under a burst from one address.
// Those answers are mocked here. The limits themselves are tested against DynamoDB Local
// (test/integration/public-flow.test.ts).
const ddb = dbDouble();
afterEach(() => ddb.reset());

const limits: Limit[] = [
  { kind: 'cooldown', key: 'otp#919876543210', seconds: 60 },
  { kind: 'window', key: 'ip#10.0.0.1', seconds: 3600, max: 2000 },
];
const now = new Date('2026-11-21T10:00:00Z');

function cancelled(...codes: string[]) {
  return serviceError('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });
}

const limiter = () => makeRateLimiter(ddb.db, 'limits');

describe('rate limiter under concurrent senders', () => {
  it('tries again when a transaction lost only a conflict, and lets the visitor through', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .resolves({});
    expect(await limiter().hit(limits, now)).toEqual({ allowed: true });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('gives a one-second cooldown, not a long refusal, when the conflicts last', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));
    expect(await limiter().hit(limits, now)).toEqual({ allowed: false, retryAfterSeconds: 1, key: 'otp#919876543210' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(CONFLICT_ATTEMPTS);
  });

  it('does not try again when a limit is reached, even beside a conflict', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'ConditionalCheckFailed'));
    const result = await limiter().hit(limits, now);
    expect(result).toMatchObject({ allowed: false, key: 'ip#10.0.0.1' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('sliding windows (per number)', () => {
  const sends = {
    kind: 'sliding',
    key: 'otp-sends#919876543210',
    windows: [
      { seconds: 3600, max: 5 },
      { seconds: 86_400, max: 10 },
    ],
  } as const satisfies Limit;
  const minutesAgo = (...minutes: number[]) => minutes.map((m) => now.getTime() - m * 60_000);

  it('lets a sixth send in only when the first of the last five is an hour old, whatever the clock hour', () => {
    expect(slidingRetryAt(sends, minutesAgo(50, 40, 30, 20, 10), now.getTime())).toBe(now.getTime() + 10 * 60_000);
    expect(slidingRetryAt(sends, minutesAgo(70, 40, 30, 20, 10), now.getTime())).toBe(0);
  });

  it('counts ten in any 24 hours', () => {
    const day = minutesAgo(1380, 1300, 1200, 1100, 1000, 900, 800, 700, 600, 500);
    expect(slidingRetryAt(sends, day, now.getTime())).toBe(now.getTime() + 60 * 60_000);
  });

  it('reads again and tries again when another send changed the item since it was read', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: minutesAgo(30), version: 3 } });
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled('ConditionalCheckFailed')).resolves({});
    expect(await limiter().hit([sends], now)).toEqual({ allowed: true });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(2);
    const update = ddb.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems![0]!.Update!;
    expect(update.ConditionExpression).toBe('version = :version');
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':version': 3,
      ':next': 4,
      ':times': [...minutesAgo(30), now.getTime()],
    });
  });

  it('refuses a full window without writing anything', async () => {
    ddb.on(GetCommand).resolves({ Item: { times: minutesAgo(50, 40, 30, 20, 10), version: 5 } });
    expect(await limiter().hit([limits[0]!, sends], now)).toEqual({
      allowed: false,
      retryAfterSeconds: 600,
      key: 'otp-sends#919876543210',
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
