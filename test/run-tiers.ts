// `npm test`'s vitest part, in two phases.
//
// 1. The browser tier in one process, the other three in another, side by side. On two
//    cores vitest runs one file at a time (its default is one worker fewer than the CPUs),
//    so one process ran every tier in a row: about 25 minutes, most of it the browser tier
//    waiting on pages. Two processes keep each tier's files one at a time, as they were
//    written to run (each tier has its own servers on free ports), and overlap the
//    browser's waits with the rest.
// 2. The heaviest files alone, after both, each integration file in its own process: files that feed thousands of
//    applications through the stream or hundreds of concurrent approvals through
//    DynamoDB Local, and two browser files that rasterise a PDF or wait on the search
//    index. Beside the other process on two cores they took two to three times as long
//    as alone and ran out of their time limits (2026-11-28's full run); alone they pass
//    in a few minutes each.
//
// A failure in any fails the run; every phase always runs. Each failing group's failures are
// printed again at the very end: CI shows only the tail of the log.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

/** The heavy files of phase 2 (paths from the repository's root), by project. */
const quietFiles = {
  integration: [
    'test/integration/rollups.test.ts',
    'test/integration/rollups-campaigns.test.ts',
    'test/integration/rollups-rebuild.test.ts',
    'test/integration/staff-scope-reports.test.ts',
    'test/integration/member-numbers.test.ts',
    'test/integration/decision-notices.test.ts',
  ],
  // A PDF rasterised and compared line by line; a coordinator's search waiting on the
  // index: twice their time beside the rest, past their limits.
  e2e: ['test/e2e/campaign-print.test.ts', 'test/e2e/staff-coordinator.test.ts'],
} as const;

interface Group {
  readonly label: string;
  readonly args: readonly string[];
}

const excluding = (files: readonly string[]) => files.flatMap((file) => ['--exclude', file]);
const sideBySide: readonly Group[] = [
  { label: 'e2e', args: ['--project', 'e2e', ...excluding(quietFiles.e2e)] },
  {
    label: 'rest',
    args: ['--project', 'unit', '--project', 'integration', '--project', 'infra', ...excluding(quietFiles.integration)],
  },
];
// Each heavy integration file in a vitest of its own, so with a DynamoDB Local of its own:
// in one process the data of the files before it stayed in the tier's server, and the last
// file ran several times slower (2026-11-28: member-numbers' 500 approvals took 29 s first
// and timed out last, after 60,000 items of the others).
const alone: readonly Group[] = [
  ...quietFiles.integration.map((file) => ({
    label: `quiet ${file.replace(/^.*\//, '').replace(/\.test\.ts$/, '')}`,
    args: ['--project', 'integration', file],
  })),
  { label: 'quiet-e2e', args: ['--project', 'e2e', ...quietFiles.e2e] },
];

/** What each group printed of its failures: the tail of CI's log shows only the end. */
const failures = new Map<string, string[]>();

// Vitest prints its failures between a "Failed Tests" (or "Unhandled Errors") rule and
// the summary; a FAIL or × line elsewhere names the test too.
function failureCollector(label: string): (line: string) => void {
  const kept: string[] = [];
  failures.set(label, kept);
  let inSection = false;
  return (line) => {
    const plain = stripVTControlCharacters(line);
    if (/⎯{3,} (Failed Tests|Unhandled Errors?|Failed Suites)/.test(plain)) inSection = true;
    if (/^\s*Test Files /.test(plain)) inSection = false;
    if ((inSection || /^\s*(FAIL|×)\s/.test(plain)) && kept.length < 120 && plain.trim()) kept.push(plain);
  };
}

function run({ label, args }: Group): Promise<number> {
  const child = spawn('npx', ['vitest', 'run', ...args, ...process.argv.slice(2)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  const collect = failureCollector(label);
  // Each line says which process wrote it: the two reports interleave.
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream }).on('line', (line) => {
      collect(line);
      out.write(`[${label}] ${line}\n`);
    });
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const started = Date.now();
const minutes = () => ((Date.now() - started) / 60_000).toFixed(1);
const codes = await Promise.all(sideBySide.map(run));
process.stdout.write(`side by side took ${minutes()} min\n`);
for (const group of alone) codes.push(await run(group));
[...sideBySide, ...alone].forEach((group, i) => {
  process.stdout.write(`${group.label}: exit ${codes[i]}\n`);
  if (codes[i] !== 0) for (const line of failures.get(group.label) ?? []) process.stdout.write(`  ${line}\n`);
});
process.stdout.write(`tiers took ${minutes()} min\n`);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
