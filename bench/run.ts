// `npm run bench` runs every part; `npm run bench -- web lambda` runs the parts named.
// Each part runs in its own process (its own DynamoDB Local, its own environment), writes
// its figures, and this gathers them into `.bench/results.json` (keyed by figure name:
// value, unit, budget, reference, ok), prints one table, and writes it as Markdown to
// `.bench/results.md` for the README. Exits non-zero when a budget is missed or a part fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { acknowledgement } from './acknowledged';
import { benchDir, type Figure, type Figures, partsDir, round } from './figures';

export const parts = ['web', 'lambda', 'dynamo', 'throughput', 'load', 'rally'] as const;
type Part = (typeof parts)[number];

interface PartFile {
  readonly part: Part;
  readonly finishedAt: string;
  readonly failure: string | null;
  readonly figures: Figures;
}

const root = resolve(import.meta.dirname, '..');

function runOne(part: Part): Promise<{ code: number; seconds: number }> {
  const started = Date.now();
  rmSync(resolve(partsDir, `${part}.json`), { force: true });
  return new Promise((done) => {
    const child = spawn(resolve(root, 'node_modules/.bin/tsx'), [resolve(root, 'bench/parts', `${part}.ts`)], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    child.on('exit', (code, signal) => done({ code: code ?? (signal ? 2 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

function readPart(part: Part): PartFile | undefined {
  const file = resolve(partsDir, `${part}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PartFile) : undefined;
}

const show = (n: number | null) => (n === null ? '' : round(n).toLocaleString('en-US'));

export function markdownTable(figures: Figures): string {
  const header = ['figure', 'value', 'unit', 'budget', 'reference', 'ok'];
  const rows = Object.entries(figures).map(([name, f]) => [
    name,
    show(f.value),
    f.unit,
    f.rule ?? '',
    show(f.reference),
    f.ok ? 'yes' : acknowledgement(name) ? 'missed (known)' : '**MISSED**',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 1 || i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 1 || i === 4 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main(): Promise<number> {
  const asked = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = asked.filter((a) => !(parts as readonly string[]).includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown part ${unknown.join(', ')}. Parts: ${parts.join(', ')}.\n`);
    return 2;
  }
  const chosen: readonly Part[] = asked.length > 0 ? (asked as Part[]) : parts;
  mkdirSync(partsDir, { recursive: true });
  const started = Date.now();
  const outcomes: { part: Part; code: number; seconds: number }[] = [];
  for (const part of chosen) {
    process.stderr.write(`\n== bench: ${part} ==\n`);
    outcomes.push({ part, ...(await runOne(part)) });
  }

  // Every part's latest figures (a part not run this time keeps its last file).
  const figures: Figures = {};
  const failures: string[] = [];
  for (const part of parts) {
    const file = readPart(part);
    if (!file) continue;
    if (file.failure) failures.push(`${part}: ${file.failure}`);
    Object.assign(figures, file.figures);
  }
  const plain: Record<string, Omit<Figure, 'rule'>> = Object.fromEntries(
    Object.entries(figures).map(([name, { value, unit, budget, reference, ok }]) => [name, { value, unit, budget, reference, ok }]),
  );
  writeFileSync(resolve(benchDir, 'results.json'), `${JSON.stringify(plain, null, 2)}\n`);
  const table = markdownTable(figures);
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
  writeFileSync(resolve(benchDir, 'results.md'), `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}.\n\n${table}\n`);

  process.stdout.write(`\n${table}\n\n`);
  for (const o of outcomes) process.stdout.write(`${o.part}: ${o.code === 0 ? 'ok' : o.code === 1 ? 'budget missed' : 'FAILED'} in ${o.seconds.toFixed(0)} s\n`);
  for (const f of failures) process.stdout.write(`failed: ${f}\n`);
  const missedAll = Object.entries(figures).filter(([, f]) => !f.ok).map(([n]) => n);
  const known = missedAll.filter((n) => acknowledgement(n));
  const missed = missedAll.filter((n) => !acknowledgement(n));
  if (known.length > 0) {
    const reasons = new Set(known.map((n) => acknowledgement(n)!.why));
    process.stdout.write(`known misses (bench/acknowledged.ts, README "Performance"): ${known.join(', ')}\n`);
    for (const why of reasons) process.stdout.write(`  why: ${why}\n`);
  }
  if (missed.length > 0) process.stdout.write(`budgets missed: ${missed.join(', ')}\n`);
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(0)} s; figures in .bench/results.json\n`);
  // A part's own exit code is 1 for any miss; what counts here is what is not acknowledged.
  return outcomes.some((o) => o.code === 2) || failures.length > 0 || missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(2);
  },
);
