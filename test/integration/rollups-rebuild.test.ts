import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RollupState } from '../../lambdas/adapters/rollups-keys';
import { rebuildRollups, RebuildInProgressError } from '../../lambdas/lib/rollups-rebuild';
import { type DayCounters } from '../../rules/report-counters';
import {
  applicationItem,
  changeStatus,
  DISTRICTS,
  erase,
  generateApplications,
  inParallel,
  istDayOf,
  putAll,
  randomSource,
  scanApplications,
  shiftDay,
  STATUSES,
} from '../support/rollups';
import { type BruteFilters, bruteForceReport } from '../support/rollups-brute';
import { rollupsHarness, type RollupsHarness } from '../support/rollups-harness';

// The rebuild recomputes the rollups from the applications table into a new generation
// and switches to it: it equals what the stream built, and it counts nothing twice
// while the stream keeps changing the table under it.

const random = randomSource(7);
const COUNT = 1500;
let h: RollupsHarness;
const live = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  h = await rollupsHarness('rollups-rebuild', new Date());
  const { items } = generateApplications(random, COUNT, 60, istDayOf(Date.now()), 'r');
  for (const item of items) live.set(String(item.pk), item);
  await putAll(h.db, h.names.applications, items);
  await inParallel(
    items.filter(() => random.chance(0.3)),
    16,
    (item) => changeStatus(h.db, h.names.applications, item, random.pick(STATUSES)),
  );
  await inParallel(
    items.filter(() => random.chance(0.05)),
    16,
    async (item) => {
      await erase(h.db, h.names.applications, item);
      live.delete(String(item.pk));
    },
  );
  await h.poller.drain(120_000);
}, 180_000);
afterAll(() => h?.stop());

/** A generation's figures: non-zero counters per day row, per-status totals, counted states. */
function figures(dump: { days: DayCounters[]; totals: { byStatus: Record<string, number> }; states: RollupState[] }) {
  const days = Object.fromEntries(
    dump.days
      .filter((d) => d.cells.some((c) => c.some((n) => n !== 0)))
      .map((d) => [`${d.status}#${d.day}`, JSON.stringify(d.cells)]),
  );
  const states = Object.fromEntries(dump.states.filter((s) => s.cell).map((s) => [s.id, s.cell]));
  return { days, totals: dump.totals.byStatus, states };
}

async function expectMatchesTable() {
  const raw = await scanApplications(h.db, h.names.applications);
  expect(raw.length).toBe(live.size);
  const today = istDayOf(h.clock.getTime());
  const cases: { query: Record<string, string>; filters: BruteFilters }[] = [
    { query: {}, filters: {} },
    {
      query: { status: 'approved,rejected', district: DISTRICTS.slice(0, 6).join(',') },
      filters: { statuses: ['approved', 'rejected'], districts: DISTRICTS.slice(0, 6) },
    },
    { query: { from: shiftDay(today, -20) }, filters: { from: shiftDay(today, -20) } },
  ];
  for (const { query, filters } of cases) {
    const report = await h.report(query);
    const brute = bruteForceReport(raw, filters, today);
    expect(report.total).toBe(brute.total);
    expect(report.byStatus).toEqual(brute.byStatus);
    expect(report.byAge).toEqual(brute.byAge);
    expect(report.byGender).toEqual(brute.byGender);
    expect(report.byMember).toEqual(brute.byMember);
    expect(report.members).toEqual(brute.members);
    expect(Object.fromEntries(report.byDistrict.map((d) => [d.district, d.count]))).toEqual(brute.byDistrict);
  }
}

describe('rollups rebuild', () => {
  it('produces the rollups the stream built', async () => {
    const before = (await h.store.getMeta())!;
    const streamBuilt = figures(await h.store.dumpGeneration(before.current));
    const result = await rebuildRollups(
      { store: h.store, db: h.db, applicationsTable: h.names.applications, clock: () => h.clock },
      { keepPrevious: true },
    );
    expect(result).toMatchObject({ previous: before.current, scanned: live.size, skipped: 0, deletedItems: 0 });
    expect((await h.store.getMeta())!.current).toBe(result.generation);
    const rebuilt = figures(await h.store.dumpGeneration(result.generation));
    expect(rebuilt.totals).toEqual(streamBuilt.totals);
    expect(rebuilt.days).toEqual(streamBuilt.days);
    expect(rebuilt.states).toEqual(streamBuilt.states);
    await expectMatchesTable();
    expect(await h.store.deleteGeneration(before.current)).toBeGreaterThan(live.size);
  });

  it('counts nothing twice while the stream keeps changing the table during the rebuild', async () => {
    let n = 0;
    /** Inserts, status changes and erasures, as the public flow and staff make them. */
    const writeSome = async (count: number) => {
      for (let i = 0; i < count; i++, n++) {
        const kind = random.next();
        const items = [...live.values()];
        if (kind < 0.4) {
          const item = applicationItem({
            id: `late${n}`,
            submitted_at: new Date(Date.now() - random.int(0, 40) * 86_400_000).toISOString(),
            application_status: random.pick(STATUSES),
            revenue_district: random.pick(DISTRICTS),
            gender: random.pick(['Male', 'Female']),
            date_of_birth: `${random.int(1970, 2010)}-0${random.int(1, 9)}-1${random.int(0, 9)}`,
            is_already_member: random.chance(0.5),
          });
          await h.put(item);
          live.set(String(item.pk), item);
        } else if (kind < 0.85) {
          await changeStatus(h.db, h.names.applications, random.pick(items), random.pick(STATUSES));
        } else {
          const item = random.pick(items);
          await erase(h.db, h.names.applications, item);
          live.delete(String(item.pk));
        }
      }
    };
    let scanning = false;
    const during: Promise<void>[] = [];
    const result = await rebuildRollups(
      { store: h.store, db: h.db, applicationsTable: h.names.applications, clock: () => h.clock },
      {
        segments: 4,
        hooks: {
          // The consumer writes the new generation's states first for these...
          building: async () => {
            await writeSome(150);
            await h.poller.drain(60_000);
            scanning = true;
            during.push(
              (async () => {
                while (scanning) await writeSome(5);
              })(),
            );
          },
          // ...changes these after the scan wrote their states, before its sums are added.
          scanned: async () => {
            scanning = false;
            await Promise.all(during);
            await writeSome(150);
            await h.poller.drain(60_000);
          },
        },
      },
    );
    await writeSome(50);
    await h.poller.drain(60_000);
    expect(h.poller.failures()).toEqual([]);
    expect(result.skipped).toBeGreaterThan(50);
    expect(result.deletedItems).toBeGreaterThan(0);
    await expectMatchesTable();
    // And the generation equals a rebuild from scratch.
    const current = figures(await h.store.dumpGeneration(result.generation));
    const again = await rebuildRollups(
      { store: h.store, db: h.db, applicationsTable: h.names.applications, clock: () => h.clock },
      { keepPrevious: true },
    );
    const fresh = figures(await h.store.dumpGeneration(again.generation));
    expect(fresh.days).toEqual(current.days);
    expect(fresh.totals).toEqual(current.totals);
    expect(fresh.states).toEqual(current.states);
  }, 180_000);

  it('does not start while another rebuild is under way, unless forced', async () => {
    const meta = (await h.store.getMeta())!;
    await h.store.startBuilding('interrupted', false);
    const deps = { store: h.store, db: h.db, applicationsTable: h.names.applications, clock: () => h.clock };
    await expect(rebuildRollups(deps)).rejects.toBeInstanceOf(RebuildInProgressError);
    const forced = await rebuildRollups(deps, { force: true });
    expect(forced.previous).toBe(meta.current);
    expect((await h.store.getMeta())!).toMatchObject({ current: forced.generation });
    expect((await h.store.getMeta())!.building).toBeUndefined();
    await expectMatchesTable();
  }, 120_000);
});
