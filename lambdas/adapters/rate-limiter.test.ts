import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS, type Limit, makeRateLimiter } from './rate-limiter';

// DynamoDB Local queues concurrent transactions instead of cancelling them, so it never
// answers TransactionConflict; the real service does, under a burst from one address.
// Those answers are mocked here. The limits themselves are tested against DynamoDB Local
// (test/integration/public-flow.test.ts).
const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

const limits: Limit[] = [
  { kind: 'cooldown', key: 'otp#919876543210', seconds: 60 },
  { kind: 'window', key: 'ip#10.0.0.1', seconds: 3600, max: 2000 },
];
const now = new Date('2026-11-21T10:00:00Z');

function cancelled(...codes: string[]) {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

const limiter = () => makeRateLimiter(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'ap-south-1' })), 'limits');

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
