// `npm run bench:rollups`: what one report costs at 10,000 and at 100,000 applications.
//
// Loads applications straight into DynamoDB Local (BatchWrite, in parallel), lets the
// local stream poller feed them to the real consumer, then calls the report handler
// (90 days, every district and status) with a meter on its DynamoDB client that asks
// every request for ReturnConsumedCapacity TOTAL: items read and capacity units are
// measured, not estimated. Asserts that they differ by less than 10% between the two
// sizes, and that a rebuild on 100,000 produces the rollups the stream built.
// BENCH_SMALL / BENCH_LARGE change the sizes.
import { makeSearchIndex } from '../lambdas/adapters/search-index';
import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { ensureTables, localDb, localTableNames, startDynamoDbLocal } from '../local/dynamodb';
import { localLambdaContext } from '../local/queue';
import { startStreamPoller } from '../local/stream-poller';
import { type RollupState } from '../lambdas/adapters/rollups-keys';
import { makeRollupsReader } from '../lambdas/adapters/rollups-reader';
import { meterCapacity } from '../lambdas/lib/capacity-meter';
import { rebuildRollups, rebuildStore } from '../lambdas/lib/rollups-rebuild';
import type { ReportCost } from '../lambdas/handlers/reports-summary';
import { reportSummarySchema } from '../rules/report';
import { type DayCounters } from '../rules/report-counters';
import { generateApplications, istDayOf, putAll, randomSource, shiftDay, staffEvent } from '../test/support/rollups';
import { dumpGeneration } from '../test/support/rollups-dump';
import { useBenchFunctionEnv } from './function-env';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const SMALL = Number(process.env.BENCH_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
const DAYS = 120;
const started = Date.now();
const say = (line: string) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
/** A fresh context per invocation, as Lambda gives: middy times out from its remaining time. */
const context = (): Context => localLambdaContext('bench', 60_000);

interface Row {
  readonly label: string;
  readonly applications: number;
  readonly cost: ReportCost;
  readonly wallMs: number;
}

/** Non-zero counters, totals and counted cells of a generation, for comparison. */
function figures(dump: { days: DayCounters[]; totals: { byStatus: Record<string, number> }; states: RollupState[] }) {
  const days = dump.days
    .filter((d) => d.cells.some((c) => c.some((n) => n !== 0)))
    .map((d) => `${d.status}#${d.day}=${JSON.stringify(d.cells)}`)
    .sort();
  const states = dump.states
    .filter((s) => s.cell)
    .map((s) => `${s.id}=${JSON.stringify(s.cell)}`)
    .sort();
  return { days, totals: JSON.stringify(dump.totals.byStatus), states };
}

function table(rows: readonly Row[]): string {
  const header = [
    'report (90 days, all districts, all statuses)',
    'applications',
    'requests',
    'items read',
    'RCU',
    'handler ms',
    'wall ms',
  ];
  const body = rows.map((r) => [
    r.label,
    r.applications.toLocaleString('en-IN'),
    String(r.cost.requests),
    String(r.cost.itemsRead),
    r.cost.capacityUnits.toFixed(1),
    r.cost.ms.toFixed(1),
    r.wallMs.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/**
 * DynamoDB Local with the bench's tables, the functions' environment pointed at it, and
 * the stream poller feeding the real stream consumer.
 */
async function startBench() {
  const dynamo = await startDynamoDbLocal();
  const names = localTableNames('bench');
  await ensureTables(dynamo.client, names);
  useBenchFunctionEnv(dynamo.endpoint, names);
  const db = localDb(dynamo.endpoint);
  const store = rebuildStore(db, names.rollups);
  const stream = await import('../lambdas/handlers/applications-stream');
  const consumer = stream.makeHandler({
    rollups: store,
    search: makeSearchIndex(db, names.search),
    clock: () => new Date(),
  });
  const poller = await startStreamPoller({
    endpoint: dynamo.endpoint,
    tableName: names.applications,
    handler: (e) => consumer(e),
  });
  return { dynamo, names, db, store, poller };
}

type Bench = Awaited<ReturnType<typeof startBench>>;

/** Measures the report (90 days to yesterday) as of now, or as of `at`, on its own metered client. */
async function reportMeter({ dynamo, names }: Bench) {
  const summary = await import('../lambdas/handlers/reports-summary');
  const reportDb = localDb(dynamo.endpoint);
  let lastCost: ReportCost | undefined;
  const handlerAt = (clock: () => Date) =>
    summary.makeHandler({
      rollups: makeRollupsReader(reportDb, names.rollups),
      clock,
      meter: meterCapacity(reportDb),
      onCost: (cost) => (lastCost = cost),
    });
  const report = handlerAt(() => new Date());
  const yesterday = shiftDay(istDayOf(Date.now()), -1);
  const query = { from: shiftDay(yesterday, -89), to: yesterday };
  return async (label: string, applications: number, at?: Date): Promise<Row> => {
    const handler = at ? handlerAt(() => at) : report;
    const runs: Row[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      const response = await handler(staffEvent(query), context());
      const wallMs = performance.now() - t0;
      if (response.statusCode !== 200) {
        throw new Error(`report answered ${response.statusCode}: ${response.body}`);
      }
      const body = v.parse(reportSummarySchema, JSON.parse(response.body ?? ''));
      if (body.series.length !== 90) throw new Error('expected 90 days');
      if (i > 0) runs.push({ label, applications, cost: lastCost!, wallMs }); // the first warms up
    }
    // The median run by handler time (items and capacity are the same every run).
    const sorted = [...runs].sort((a, b) => a.cost.ms - b.cost.ms);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
}

/** Rebuilds the rollups from the table and compares them with what the stream built. */
async function rebuildAndCompare({ db, names, store }: Bench) {
  say('rebuilding the rollups from the table');
  const before = (await store.getMeta())!;
  const rebuilt = await rebuildRollups(
    { store, db, applicationsTable: names.applications, clock: () => new Date() },
    { keepPrevious: true },
  );
  say(`rebuild of ${rebuilt.scanned.toLocaleString('en-IN')} applications: ${(rebuilt.ms / 1000).toFixed(1)} s`);
  const [streamBuilt, fromTable] = await Promise.all([
    dumpGeneration(db, names.rollups, before.current).then(figures),
    dumpGeneration(db, names.rollups, rebuilt.generation).then(figures),
  ]);
  const equal =
    JSON.stringify(streamBuilt.days) === JSON.stringify(fromTable.days) &&
    streamBuilt.totals === fromTable.totals &&
    JSON.stringify(streamBuilt.states) === JSON.stringify(fromTable.states);
  return { rebuilt, fromTable, equal };
}

async function main(): Promise<number> {
  const bench = await startBench();
  const { db, names, poller } = bench;
  const measure = await reportMeter(bench);
  const today = istDayOf(Date.now());
  const random = randomSource(42);
  const load = async (count: number, prefix: string) => {
    const { items } = generateApplications(random, count, DAYS, today, prefix);
    const t0 = Date.now();
    await putAll(db, names.applications, items, 12);
    say(
      `loaded ${count.toLocaleString('en-IN')} applications in ${((Date.now() - t0) / 1000).toFixed(1)} s (BatchWrite)`,
    );
    await poller.drain(900_000);
    if (poller.failures().length > 0) throw new Error('stream records failed');
    say(`stream consumer caught up after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };

  const rows: Row[] = [];
  const tomorrow = new Date(Date.now() + 86_400_000);
  try {
    await load(SMALL, 'a');
    rows.push(await measure('job up to date', SMALL));
    rows.push(await measure('tomorrow, job not run: corrected on read', SMALL, tomorrow));
    await load(LARGE - SMALL, 'b');
    rows.push(await measure('job up to date', LARGE));
    rows.push(await measure('tomorrow, job not run: corrected on read', LARGE, tomorrow));
    const { rebuilt, fromTable, equal: rebuildEqual } = await rebuildAndCompare(bench);

    process.stdout.write(`\n${table(rows)}\n\n`);
    const [small, , large] = rows as [Row, Row, Row, Row];
    const diff = (a: number, b: number) => Math.abs(b - a) / Math.max(a, b);
    const itemsDiff = diff(small.cost.itemsRead, large.cost.itemsRead);
    const rcuDiff = diff(small.cost.capacityUnits, large.cost.capacityUnits);
    const checks = [
      [`items read differ by ${(itemsDiff * 100).toFixed(1)}% (< 10%)`, itemsDiff < 0.1],
      [`capacity units differ by ${(rcuDiff * 100).toFixed(1)}% (< 10%)`, rcuDiff < 0.1],
      [
        `rebuild on ${rebuilt.scanned.toLocaleString('en-IN')} equals the stream-built rollups (${fromTable.days.length} day rows, ${fromTable.states.length} states) in ${(rebuilt.ms / 1000).toFixed(1)} s`,
        rebuildEqual,
      ],
    ] as const;
    for (const [text, ok] of checks) process.stdout.write(`${ok ? 'PASS' : 'FAIL'}  ${text}\n`);
    say('done');
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    await poller.stop();
    await bench.dynamo.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
