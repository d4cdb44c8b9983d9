import { afterEach, describe, expect, it } from 'vitest';
import { applicationItem } from '../support/rollups';
import { ist, rollupsHarness, streamRecord, type RollupsHarness } from '../support/rollups-harness';

// Ages are exact on the day of the request (IST), as people grow older: the daily job
// moves counted buckets on birthdays, and a report asked before the job has run (or
// for an earlier day) corrects on the fly from the birthday index.

let h: RollupsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const march = { from: '2026-03-01', to: '2026-03-10' };
const person = (id: string, date_of_birth: string, extra: Record<string, unknown> = {}) =>
  applicationItem({
    id,
    submitted_at: '2026-03-05T06:00:00.000Z',
    application_status: 'pending',
    revenue_district: 'Madurai',
    gender: 'Female',
    date_of_birth,
    ...extra,
  });
const ages = (summary: { byAge: Record<string, number> }) =>
  Object.fromEntries(Object.entries(summary.byAge).filter(([, n]) => n !== 0));

describe('age buckets across birthdays', () => {
  it('moves the 18th and 25th birthdays on the day, with the job not run (on the fly) and run', async () => {
    h = await rollupsHarness('rollups-age', ist('2026-03-10T12:00:00.000'));
    await h.put(person('turns-18', '2008-03-11'));
    await h.put(person('turns-25', '2001-03-11'));
    await h.put(person('stays-35', '1990-05-05'));
    await h.poller.drain();
    const before = { '<18': 1, '18-24': 1, '35-44': 1 };
    const after = { '18-24': 1, '25-34': 1, '35-44': 1 };
    expect(ages(await h.report(march))).toEqual(before);

    // The first millisecond of the birthday in IST; the job has not run.
    h.clock = ist('2026-03-11T00:00:00.000');
    const onTheFly = await h.report(march);
    expect(onTheFly.asOf).toBe('2026-03-11');
    expect(ages(onTheFly)).toEqual(after);
    expect(ages({ byAge: await h.storedAges(march.from, march.to) })).toEqual(before); // not written: corrected on read
    // The last millisecond before it.
    h.clock = ist('2026-03-10T23:59:59.999');
    expect(ages(await h.report(march))).toEqual(before);

    // The job at midnight writes the moves; the figures stay the same.
    h.clock = ist('2026-03-11T00:00:05.000');
    expect(await h.age()).toMatchObject({ agedThrough: '2026-03-11', moved: 2 });
    expect(ages({ byAge: await h.storedAges(march.from, march.to) })).toEqual(after);
    expect(ages(await h.report(march))).toEqual(after);
    expect(await h.age()).toMatchObject({ agedThrough: '2026-03-11', moved: 0 }); // twice is once

    // A report for an earlier day than the job's corrects backwards.
    h.clock = ist('2026-03-10T20:00:00.000');
    expect(ages(await h.report(march))).toEqual(before);
  });

  it('ages someone born on 29 February on 1 March in a common year', async () => {
    h = await rollupsHarness('rollups-leap', ist('2026-02-28T23:00:00.000'));
    await h.put(person('leapling', '2008-02-29', { submitted_at: '2026-02-20T06:00:00.000Z' }));
    await h.poller.drain();
    const february = { from: '2026-02-01', to: '2026-02-28' };
    expect(ages(await h.report(february))).toEqual({ '<18': 1 });
    h.clock = ist('2026-03-01T00:00:00.000');
    expect(ages(await h.report(february))).toEqual({ '18-24': 1 });
    expect(await h.age()).toMatchObject({ moved: 1 });
    expect(ages({ byAge: await h.storedAges(february.from, february.to) })).toEqual({ '18-24': 1 });
  });

  it('catches up on days the job missed, and a change before the job moves counts from where they were', async () => {
    h = await rollupsHarness('rollups-late', ist('2026-03-08T09:00:00.000'));
    const a = person('turns-18', '2008-03-11');
    await h.put(a);
    await h.put(person('turns-25', '2001-03-10'));
    await h.put(person('turns-45', '1981-03-09', { gender: 'Male' }));
    await h.poller.drain();
    expect(ages(await h.report(march))).toEqual({ '<18': 1, '18-24': 1, '35-44': 1 });

    // Three days later, no job run since: all three birthdays are corrected on the fly.
    h.clock = ist('2026-03-11T10:00:00.000');
    const late = { '18-24': 1, '25-34': 1, '45-54': 1 };
    expect(ages(await h.report(march))).toEqual(late);

    // A staff status change now: the consumer counts the application as of today.
    await h.put({ ...a, application_status: 'approved', district_status: 'Madurai#approved' });
    await h.poller.drain();
    const report = await h.report(march);
    expect(ages(report)).toEqual(late);
    expect(report.byStatus).toMatchObject({ pending: 2, approved: 1 });
    expect(ages(await h.report({ ...march, status: 'approved' }))).toEqual({ '18-24': 1 });

    // The job moves the two others (the changed one is counted right already).
    expect(await h.age()).toMatchObject({ agedThrough: '2026-03-11', moved: 2 });
    expect(ages({ byAge: await h.storedAges(march.from, march.to) })).toEqual(late);
    expect(ages(await h.report(march))).toEqual(late);
  });

  it('makes writers count ages as of the day the job announced, never older', async () => {
    h = await rollupsHarness('rollups-race', ist('2026-03-10T23:59:59.000'));
    await h.put(person('first', '2008-03-11'));
    await h.poller.drain();
    const meta = (await h.store.getMeta())!;
    expect(meta.agedThrough).toBe('2026-03-10');
    // The job has announced 11 March (and waits out the fence): a consumer whose clock
    // still says 10 March counts as of the announced day.
    await h.store.announceAging('2026-03-11');
    await h.put(person('second', '2008-03-11'));
    await h.poller.drain();
    const states = await h.store.getStates(meta.current, ['first', 'second']);
    expect(states.get('first')).toMatchObject({ ageDay: '2026-03-10', cell: { age: '<18' } });
    expect(states.get('second')).toMatchObject({ ageDay: '2026-03-11', cell: { age: '18-24' } });
    h.clock = ist('2026-03-11T00:00:01.000');
    expect(await h.age()).toMatchObject({ agedThrough: '2026-03-11', moved: 1 });
    expect(ages(await h.report(march))).toEqual({ '18-24': 2 });
  });
});

describe('the stream consumer', () => {
  it('counts a record delivered again once, keeps an erased application erased, and reports only bad records', async () => {
    h = await rollupsHarness('rollups-once', ist('2026-03-10T12:00:00.000'));
    const a = person('a', '2000-01-01');
    const b = person('b', '1999-01-01', { application_status: 'rejected' });
    const insert = [streamRecord('INSERT', a, '100'), streamRecord('INSERT', b, '101')];
    expect(await h.consume(insert)).toEqual({ batchItemFailures: [] });
    expect(await h.consume(insert)).toEqual({ batchItemFailures: [] });
    expect((await h.report(march)).total).toBe(2);

    // Erased, then the old insert arrives once more (a replay): it stays erased.
    await h.consume([streamRecord('REMOVE', a, '102')]);
    await h.consume(insert);
    expect((await h.report(march)).byStatus).toMatchObject({ pending: 0, rejected: 1 });

    // A guard item is ignored; a record without a new image fails alone.
    const guard = { pk: 'PHONE#919876543210', application_id: 'c' };
    const c = person('c', '2001-01-01');
    const result = await h.consume([
      streamRecord('INSERT', guard, '103'),
      streamRecord('INSERT', c, '104', { withoutNewImage: true }),
      streamRecord('MODIFY', { ...b, application_status: 'approved' }, '105'),
    ]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '104' }] });
    expect((await h.report(march)).byStatus).toMatchObject({ pending: 0, rejected: 0, approved: 1 });
    expect((await h.report()).total).toBe(1);
  });
});
