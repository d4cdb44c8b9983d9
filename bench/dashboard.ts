// `npm run bench:dashboard`: what one dashboard page costs with 100,000 applications.
//
// Loads applications straight into DynamoDB Local, builds the rollups from the table,
// then reads one page (10 rows) for no filter, each single filter and status + district,
// through the same listing code and total the handler uses, with a meter that asks every
// DynamoDB request for ReturnConsumedCapacity. Checks that the items read stay within 3
// times the rows returned and that the exact total comes from the rollups (a few items),
// not from counting rows. Text search may read more: its cost is printed.
// BENCH_DASHBOARD_SIZE changes the size.
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { listApplications } from '../lambdas/adapters/application-list';
import { makeRollupsStore } from '../lambdas/adapters/rollups';
import { totalFromRollups } from '../lambdas/lib/application-totals';
import { countApplications } from '../lambdas/adapters/application-list';
import { meterCapacity } from '../lambdas/lib/capacity-meter';
import { rebuildRollups } from '../lambdas/lib/rollups-rebuild';
import { ensureTables, localTableNames, startDynamoDbLocal } from '../local/dynamodb';
import { freePort } from '../local/ports';
import { istDay } from '../rules/ist';
import type { ApplicationFilters } from '../rules/staff-api';
import { generateApplications, putAll, randomSource, shiftDay } from '../test/support/rollups';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const SIZE = Number(process.env.BENCH_DASHBOARD_SIZE ?? 100_000);
const PAGE = 10;
const started = Date.now();
const say = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

async function main(): Promise<number> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  try {
    const names = localTableNames('bench');
    await ensureTables(dynamo.client, names);
    const db = DynamoDBDocumentClient.from(dynamo.client, { marshallOptions: { removeUndefinedValues: true } });
    const today = istDay(new Date());
    const { items } = generateApplications(randomSource(7), SIZE, 120, today, 'd');
    for (const item of items) {
      item.search_text = [item.name, item.phone_number, item.email ?? ''].join('\n').toLowerCase();
    }
    say(`loading ${SIZE.toLocaleString('en-IN')} applications`);
    await putAll(db, names.applications, items, 16);
    say('building the rollups from the table');
    const store = makeRollupsStore(db, names.rollups);
    await rebuildRollups({ store, db, applicationsTable: names.applications, clock: () => new Date() }, { fenceMs: 0 });

    const meter = meterCapacity(db);
    const total = totalFromRollups(store, (f) => countApplications(db, names.applications, f), () => new Date());
    const sample = items[Math.floor(items.length / 2)]!;
    const district = typeof sample.revenue_district === 'string' ? sample.revenue_district : 'Chennai';
    const from = shiftDay(today, -30);
    const cases: [string, Omit<ApplicationFilters, 'q'> & { q?: string }][] = [
      ['no filter', {}],
      ['status', { status: 'approved' }],
      ['district', { district }],
      ['from and to (30 days)', { from, to: today }],
      ['status + district', { status: 'pending', district }],
      ['text search (name)', { q: 'applicant d00005' }],
    ];
    const rows: string[][] = [];
    let ok = true;
    for (const [label, given] of cases) {
      const filters: ApplicationFilters = { q: undefined, ...given };
      const page = await meter.measure(() => listApplications(db, names.applications, filters, { pageSize: PAGE }));
      const count = await meter.measure(() => total(filters));
      const brute = items.filter(
        (i) =>
          (!filters.status || i.application_status === filters.status) &&
          (!filters.district || i.revenue_district === filters.district) &&
          (!filters.from || istDay(new Date(String(i.submitted_at))) >= filters.from) &&
          (!filters.to || istDay(new Date(String(i.submitted_at))) <= filters.to) &&
          (!filters.q || String(i.search_text).includes(filters.q)),
      ).length;
      const returned = page.result.items.length;
      const withinBudget = filters.q ? true : page.usage.itemsRead <= 3 * returned;
      const exact = count.result === brute;
      ok &&= withinBudget && exact;
      rows.push([
        label,
        String(returned),
        String(page.usage.itemsRead),
        page.usage.capacityUnits.toFixed(1),
        filters.q ? 'n/a (search)' : withinBudget ? 'yes' : 'NO',
        count.result.toLocaleString('en-IN'),
        exact ? 'yes' : `NO (${brute})`,
        `${count.usage.itemsRead} items / ${count.usage.capacityUnits.toFixed(1)} RCU`,
      ]);
    }
    const header = ['page (10 rows)', 'rows', 'items read', 'RCU', 'items ≤ 3×rows', 'total', 'exact', 'cost of the total'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
    process.stdout.write(
      `\n${SIZE.toLocaleString('en-IN')} applications\n${[line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n\n`,
    );
    say(ok ? 'every budget met' : 'a budget was missed');
    return ok ? 0 : 1;
  } finally {
    await dynamo.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
