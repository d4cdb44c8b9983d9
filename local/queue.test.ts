import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalQueue, type LocalQueue, type LocalQueueOptions } from './queue';

const queues: LocalQueue[] = [];
const directories: string[] = [];

afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A queue whose handler decides per record; every record handed over is logged. */
function queueWith(
  decide: (record: SQSRecord) => 'ok' | 'fail',
  options: Partial<LocalQueueOptions> = {},
): { queue: LocalQueue; seen: SQSRecord[]; events: SQSEvent[] } {
  const seen: SQSRecord[] = [];
  const events: SQSEvent[] = [];
  const queue = createLocalQueue({
    name: 'outbound',
    visibilityTimeoutMs: 20,
    maxReceiveCount: 3,
    pollIntervalMs: 10,
    handler: (event): SQSBatchResponse => {
      events.push(event);
      seen.push(...event.Records);
      return {
        batchItemFailures: event.Records.filter((r) => decide(r) === 'fail').map((r) => ({
          itemIdentifier: r.messageId,
        })),
      };
    },
    ...options,
  });
  queues.push(queue);
  return { queue, seen, events };
}

describe('local queue', () => {
  it('hands messages over as an SQS event and deletes them on success', async () => {
    const { queue, seen, events } = queueWith(() => 'ok');
    const id = await queue.send('{"kind":"welcome"}', { type: 'welcome' });
    queue.start();
    await queue.drain(2000);

    expect(events).toHaveLength(1);
    const [record] = seen;
    expect(record).toMatchObject({
      messageId: id,
      body: '{"kind":"welcome"}',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:outbound',
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: { type: { stringValue: 'welcome', dataType: 'String' } },
      md5OfBody: createHash('md5').update('{"kind":"welcome"}').digest('hex'),
      md5OfMessageAttributes: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
    });
    expect(record?.receiptHandle).toBeTruthy();
    expect(queue.stats()).toEqual({ visible: 0, inFlight: 0, dead: 0, delivered: 1 });
  });

  it('delivers in batches of at most batchSize', async () => {
    const { queue, events } = queueWith(() => 'ok', { batchSize: 3 });
    for (let i = 0; i < 7; i++) await queue.send(`m${i}`);
    queue.start();
    await queue.drain(2000);
    expect(events.map((e) => e.Records.length)).toEqual([3, 3, 1]);
    expect(events.flatMap((e) => e.Records.map((r) => r.body))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('retries only the messages a partial batch failure names', async () => {
    let failedOnce = false;
    const { queue, seen } = queueWith((record) => {
      if (record.body === 'bad' && !failedOnce) {
        failedOnce = true;
        return 'fail';
      }
      return 'ok';
    });
    await queue.send('good-1');
    await queue.send('bad');
    await queue.send('good-2');
    queue.start();
    await queue.drain(2000);

    const counts = Object.fromEntries(
      ['good-1', 'bad', 'good-2'].map((b) => [b, seen.filter((r) => r.body === b).length]),
    );
    expect(counts).toEqual({ 'good-1': 1, bad: 2, 'good-2': 1 });
    expect(seen.filter((r) => r.body === 'bad').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
    expect(queue.stats().delivered).toBe(3);
    expect(queue.redeliveries()).toBe(1);
  });

  it('retries the whole batch when the handler throws', async () => {
    let calls = 0;
    const bodies: string[][] = [];
    const queue = createLocalQueue({
      name: 'throwing',
      visibilityTimeoutMs: 10,
      maxReceiveCount: 5,
      pollIntervalMs: 10,
      handler: (event) => {
        bodies.push(event.Records.map((r) => r.body));
        if (++calls === 1) throw new Error('boom');
      },
    });
    queues.push(queue);
    await queue.send('a');
    await queue.send('b');
    queue.start();
    await queue.drain(2000);
    expect(bodies).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('treats an unknown itemIdentifier as a failure of the whole batch', async () => {
    let calls = 0;
    const queue = createLocalQueue({
      name: 'bad-response',
      visibilityTimeoutMs: 10,
      maxReceiveCount: 5,
      pollIntervalMs: 10,
      handler: () => (++calls === 1 ? { batchItemFailures: [{ itemIdentifier: 'no-such-id' }] } : undefined),
    });
    queues.push(queue);
    await queue.send('a');
    queue.start();
    await queue.drain(2000);
    expect(calls).toBe(2);
  });

  it('moves a message that keeps failing to the dead letters with its body, after maxReceiveCount receives', async () => {
    const errors: string[] = [];
    const { queue, seen } = queueWith((r) => (r.body.startsWith('poison') ? 'fail' : 'ok'), {
      onError: (failure) => errors.push(...failure.messageIds),
    });
    const poisonId = await queue.send('poison {"application_id":"a1"}', { type: 'webhook' });
    await queue.send('fine');
    queue.start();
    await queue.drain(3000);

    expect(seen.filter((r) => r.messageId === poisonId)).toHaveLength(3);
    const dead = queue.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({
      messageId: poisonId,
      body: 'poison {"application_id":"a1"}',
      attributes: { type: 'webhook' },
      receiveCount: 3,
    });
    expect(errors).toEqual([poisonId, poisonId, poisonId]);
    expect(queue.stats()).toEqual({ visible: 0, inFlight: 0, dead: 1, delivered: 1 });
  });

  it('backs off: each retry waits visibility timeout × 2^(receives-1)', async () => {
    const times: number[] = [];
    const queue = createLocalQueue({
      name: 'backoff',
      visibilityTimeoutMs: 40,
      maxReceiveCount: 3,
      pollIntervalMs: 5,
      handler: () => {
        times.push(Date.now());
        throw new Error('down');
      },
    });
    queues.push(queue);
    await queue.send('x');
    queue.start();
    await queue.drain(3000);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(gaps).toHaveLength(2);
    expect(gaps[0]).toBeGreaterThanOrEqual(38);
    expect(gaps[1]).toBeGreaterThanOrEqual(78);
    expect(queue.deadLetters()[0]?.lastError).toBe('Error: down');
  });

  it('delivers once in the end a message that fails twice then succeeds', async () => {
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    const { queue } = queueWith((record) => {
      const n = (attempts.get(record.messageId) ?? 0) + 1;
      attempts.set(record.messageId, n);
      if (n <= 2) return 'fail';
      handled.push(record.body);
      return 'ok';
    });
    await queue.send('flaky');
    queue.start();
    await queue.drain(2000);
    expect(handled).toEqual(['flaky']);
    expect(queue.stats()).toEqual({ visible: 0, inFlight: 0, dead: 0, delivered: 1 });
    expect(queue.deadLetters()).toEqual([]);
  });

  it('redrives dead letters back into the queue', async () => {
    let healthy = false;
    const { queue, seen } = queueWith(() => (healthy ? 'ok' : 'fail'));
    const id = await queue.send('payload');
    queue.start();
    await queue.drain(2000);
    expect(queue.deadLetters().map((d) => d.messageId)).toEqual([id]);

    healthy = true;
    expect(queue.redrive()).toBe(1);
    await queue.drain(2000);
    expect(queue.deadLetters()).toEqual([]);
    expect(queue.stats().delivered).toBe(1);
    expect(seen.at(-1)).toMatchObject({ messageId: id, body: 'payload', attributes: { ApproximateReceiveCount: '1' } });
  });

  it('keeps messages and dead letters across a restart on the same file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'queue-test-'));
    directories.push(directory);
    const persistFile = join(directory, 'outbound.json');

    const first = queueWith((r) => (r.body === 'doomed' ? 'fail' : 'ok'), { persistFile, maxReceiveCount: 1 });
    await first.queue.send('doomed');
    first.queue.start();
    await first.queue.drain(2000);
    await first.queue.stop();
    // Sent while no consumer runs: must survive the restart undelivered.
    await first.queue.send('pending-1', { kind: 'welcome' });
    await first.queue.send('pending-2');
    first.queue.flush();

    const second = queueWith(() => 'ok', { persistFile });
    expect(second.queue.stats()).toEqual({ visible: 2, inFlight: 0, dead: 1, delivered: 0 });
    expect(second.queue.deadLetters().map((d) => d.body)).toEqual(['doomed']);
    second.queue.start();
    await second.queue.drain(2000);
    expect(second.seen.map((r) => [r.body, r.messageAttributes.kind?.stringValue])).toEqual([
      ['pending-1', 'welcome'],
      ['pending-2', undefined],
    ]);
    await second.queue.stop();

    const third = queueWith(() => 'ok', { persistFile });
    expect(third.queue.stats()).toEqual({ visible: 0, inFlight: 0, dead: 1, delivered: 2 });
  });

  it('refuses an empty body, and drain refuses to wait on a stopped queue', async () => {
    const { queue } = queueWith(() => 'ok');
    await expect(queue.send('')).rejects.toThrow(/empty/);
    await queue.send('x');
    await expect(queue.drain(100)).rejects.toThrow(/not started/);
  });
});
