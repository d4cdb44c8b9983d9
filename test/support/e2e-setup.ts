import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../local/ports';
import { findLeaks } from './log-scan';

export const artifactsDir = resolve(import.meta.dirname, '../../.test-artifacts');

// The end-to-end tier runs the product exactly as a newcomer does: `npm start`'s own
// entry point in a child process, on a free port, with its data in a temporary folder.
// Everything it prints goes to .test-artifacts/e2e-stack.log (tests scan it).
export default async function setup(project: TestProject) {
  mkdirSync(artifactsDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'membership-e2e-'));
  const port = await freePort();
  const logFile = join(artifactsDir, 'e2e-stack.log');
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  await new Promise<void>((ready, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`npm start was not ready in 120 s:\n${seen.slice(-2000)}`)), 120_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready.')) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited with ${code}:\n${seen.slice(-2000)}`));
    });
  });

  project.provide('appUrl', `http://localhost:${port}`);
  project.provide('stackLogFile', logFile);
  // Operator commands (npm run staff / import) find the stack through ${dataDir}/endpoints.json.
  project.provide('localDataDir', dataDir);

  const appUrl = `http://localhost:${port}`;
  return async () => {
    // What the run sent, to search the stack's log for it before stopping.
    const outbox = (await fetch(`${appUrl}/dev/outbox.json`).then((r) => r.json())) as { to: string; code?: string }[];
    const exited = new Promise((done) => child.once('exit', done));
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    await new Promise((done) => log.end(done));
    rmSync(dataDir, { recursive: true, force: true });

    const leaks = findLeaks(readFileSync(logFile, 'utf8'), {
      phones: [...new Set(outbox.map((m) => m.to))],
      codes: outbox.flatMap((m) => (m.code ? [m.code] : [])),
    });
    if (leaks.length > 0) throw new Error(`Personal data in the local stack's log (${logFile}): ${leaks.join('; ')}`);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    stackLogFile: string;
    localDataDir: string;
  }
}
