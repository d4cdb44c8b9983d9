// `npm test`: the type check, ESLint and the four vitest tiers, packed onto two cores.
//
// On two cores vitest runs one file at a time (its default is one worker fewer than the
// CPUs), and every tier's files were written to run one at a time (each tier has its own
// servers on free ports). So the run is a few processes side by side, in two phases:
//
// 1. Two lanes. One runs the browser tier's long files; the other runs the unit,
//    integration and infra tiers, then the browser tier's other files in a second browser
//    process (a stack and a DynamoDB Local of its own, the same built SPA), then ESLint.
//    The browser tier alone took 31 minutes beside the rest's 20 (2026-11-28), the other
//    lane then idle.
// 2. The heaviest files, two at a time instead of beside both lanes: files that feed
//    thousands of applications through the stream or hundreds of concurrent approvals
//    through DynamoDB Local, each integration file in a vitest of its own (so with a
//    DynamoDB Local of its own), and two browser files that rasterise a PDF or wait on the
//    search index. Beside both lanes they took two to three times as long as alone and ran
//    out of their time limits (2026-11-28's full run). Each of them alone keeps both
//    cores busy, so two at a time gain little; the type check follows them. ESLint ends
//    the second lane of phase 1, which ended 3 minutes before the browser lane.
//
// The SPA is built once, first in the browser lane, for both browser processes
// (LOCAL_WEB_DIST). A failure in any step fails the run; every step always runs. Each
// failing step's failures are printed again at the very end: CI shows only the log's tail.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { artifactsDir } from './support/local-stack-process';
import { buildWeb } from './support/web-build';

/**
 * The heavy integration files in two lanes of about the same length, by their durations
 * in 2026-11-28's run two at a time (rollups 4.2 min; rollups-campaigns 2.4, rollups-rebuild
 * 1.8, staff-scope-reports 1.2, member-numbers 1.0, decision-notices 1.0).
 */
const quietLane = (...names: string[]) => names.map((name) => `test/integration/${name}.test.ts`);
const quietLanes = [
  quietLane('rollups', 'member-numbers'),
  quietLane('rollups-campaigns', 'rollups-rebuild', 'staff-scope-reports', 'decision-notices'),
] as const;

/** The heavy files of phase 2 (paths from the repository's root), by project. */
const quietFiles = {
  integration: quietLanes.flat(),
  // A PDF rasterised and compared line by line; a coordinator's search waiting on the
  // index: twice their time beside the rest, past their limits.
  e2e: ['test/e2e/campaign-print.test.ts', 'test/e2e/staff-coordinator.test.ts'],
} as const;

/**
 * The browser files the second lane runs once its tiers are done: about 3.5 minutes of
 * the browser tier's 30, so that both lanes end together (durations of 2026-11-28's run).
 */
const laterBrowserFiles = [
  'test/e2e/member-card.test.ts',
  'test/e2e/grievances.test.ts',
  'test/e2e/my-correction.test.ts',
  'test/e2e/my-application.test.ts',
] as const;

interface Step {
  readonly label: string;
  /** A command and its arguments, or work done in this process. */
  readonly run: readonly string[] | (() => Promise<void>);
  readonly env?: Readonly<Record<string, string>>;
}
/** Steps one after another; the lanes of a phase run side by side. */
type Lane = readonly Step[];

const webDist = join(artifactsDir, `web-dist-${process.pid}`);
const extraArgs = process.argv.slice(2);
const excluding = (files: readonly string[]) => files.flatMap((file) => ['--exclude', file]);
const vitest = (label: string, args: readonly string[], env?: Record<string, string>): Step => ({
  label,
  run: ['npx', 'vitest', 'run', ...args, ...extraArgs],
  ...(env && { env }),
});
/** A browser process: the SPA built once, and a stack whose log is its own. */
const browser = (label: string, files: readonly string[], stackName: string): Step =>
  vitest(label, ['--project', 'e2e', ...files], { LOCAL_WEB_DIST: webDist, E2E_STACK_NAME: stackName });

const phases: readonly (readonly Lane[])[] = [
  [
    [
      { label: 'web build', run: () => buildWeb(webDist) },
      browser('e2e', excluding([...quietFiles.e2e, ...laterBrowserFiles]), 'e2e-stack'),
    ],
    [
      vitest('rest', [
        '--project',
        'unit',
        '--project',
        'unit-isolated',
        '--project',
        'integration',
        '--project',
        'infra',
        ...excluding(quietFiles.integration),
      ]),
      browser('e2e-later', laterBrowserFiles, 'e2e-stack-later'),
      { label: 'lint', run: ['npm', 'run', '-s', 'lint'] },
    ],
  ],
  // Each heavy integration file in a vitest of its own, so with a DynamoDB Local of its
  // own: in one process the data of the files before it stayed in the tier's server, and
  // the last file ran several times slower (2026-11-28: member-numbers' 500 approvals took
  // 29 s first and timed out last, after 60,000 items of the others). Two lanes of about
  // the same length (durations alone: rollups 139 s, rollups-campaigns 80 s, ...).
  [
    [...quietLanes[0].map(quietIntegration), browser('quiet-e2e', quietFiles.e2e, 'e2e-stack-quiet')],
    [...quietLanes[1].map(quietIntegration), { label: 'typecheck', run: ['npm', 'run', '-s', 'typecheck'] }],
  ],
];

function quietIntegration(file: string): Step {
  return vitest(`quiet ${file.replace(/^.*\//, '').replace(/\.test\.ts$/, '')}`, ['--project', 'integration', file]);
}

/** What each step printed of its failures: the tail of CI's log shows only the end. */
const failures = new Map<string, string[]>();

// Vitest prints its failures between a "Failed Tests" (or "Unhandled Errors") rule and
// the summary; a FAIL or × line elsewhere names the test too; tsc and ESLint print only
// what failed.
function failureCollector(label: string): (line: string) => void {
  const kept: string[] = [];
  failures.set(label, kept);
  const everything = label === 'typecheck' || label === 'lint';
  let inSection = false;
  return (line) => {
    const plain = stripVTControlCharacters(line);
    if (/⎯{3,} (Failed Tests|Unhandled Errors?|Failed Suites)/.test(plain)) inSection = true;
    if (/^\s*Test Files /.test(plain)) inSection = false;
    const failing = everything || inSection || /^\s*(FAIL|×)\s/.test(plain);
    if (failing && kept.length < 120 && plain.trim()) kept.push(plain);
  };
}

async function runStep({ label, run, env }: Step): Promise<number> {
  const begun = Date.now();
  const done = (code: number) => {
    process.stdout.write(`[${label}] took ${((Date.now() - begun) / 60_000).toFixed(1)} min, exit ${code}\n`);
    return code;
  };
  if (typeof run === 'function') {
    const collect = failureCollector(label);
    try {
      await run();
      return done(0);
    } catch (error) {
      collect(String(error instanceof Error ? (error.stack ?? error.message) : error));
      return done(1);
    }
  }
  const [command, ...args] = run;
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const collect = failureCollector(label);
  // Each line says which step wrote it: the reports interleave.
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream }).on('line', (line) => {
      collect(line);
      out.write(`[${label}] ${line}\n`);
    });
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(done(code ?? 1))));
}

async function runLane(lane: Lane): Promise<number[]> {
  const codes: number[] = [];
  for (const step of lane) codes.push(await runStep(step));
  return codes;
}

const started = Date.now();
const minutes = () => ((Date.now() - started) / 60_000).toFixed(1);
const results: [string, number][] = [];
for (const [i, lanes] of phases.entries()) {
  const codes = await Promise.all(lanes.map(runLane));
  lanes.forEach((lane, l) => lane.forEach((step, s) => results.push([step.label, codes[l]![s]!])));
  process.stdout.write(`phase ${i + 1} ended at ${minutes()} min\n`);
}
rmSync(webDist, { recursive: true, force: true });
for (const [label, code] of results) {
  process.stdout.write(`${label}: exit ${code}\n`);
  if (code !== 0) for (const line of failures.get(label) ?? []) process.stdout.write(`  ${line}\n`);
}
process.stdout.write(`npm test took ${minutes()} min\n`);
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
