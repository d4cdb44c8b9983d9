// `npm test`'s vitest part: the browser tier in one process, the other three in another,
// side by side. On two cores vitest runs one file at a time (its default is one worker
// fewer than the CPUs), so one process ran every tier in a row: about 25 minutes, most of
// it the browser tier waiting on pages. Two processes keep each tier's files one at a time,
// as they were written to run (each tier has its own servers on free ports), and overlap
// the browser's waits with the rest. A failure in either fails the run; both always finish.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const groups = [
  { label: 'e2e', args: ['--project', 'e2e'] },
  { label: 'rest', args: ['--project', 'unit', '--project', 'integration', '--project', 'infra'] },
] as const;

function run({ label, args }: (typeof groups)[number]): Promise<number> {
  const child = spawn('npx', ['vitest', 'run', ...args, ...process.argv.slice(2)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  // Each line says which process wrote it: the two reports interleave.
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream }).on('line', (line) => out.write(`[${label}] ${line}\n`));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const started = Date.now();
const codes = await Promise.all(groups.map(run));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
groups.forEach((group, i) => process.stdout.write(`${group.label}: exit ${codes[i]}\n`));
process.stdout.write(`tiers took ${minutes} min\n`);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
