import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onFreePort } from '../../local/ports';
import { findLeaks } from './log-scan';

export const artifactsDir = resolve(import.meta.dirname, '../../.test-artifacts');

/** A local stack started as `npm start` starts it, in a child process of its own. */
export interface StackProcess {
  readonly url: string;
  readonly dataDir: string;
  readonly logFile: string;
  /** Stops the stack, removes its data, and fails if its log holds a number or a code it sent. */
  stop(): Promise<void>;
}

/**
 * `npm start`'s own entry point on a free port with its data in a temporary folder, the
 * given settings on top of this process's environment (LOCAL_OTP_CHANNELS, ...).
 * Everything it prints goes to `.test-artifacts/<name>.log`. Resolves once it says Ready.
 */
export function startStackProcess(name: string, env: Record<string, string> = {}): Promise<StackProcess> {
  // The port is free when picked, not held: something else may bind it before the stack's
  // web server does (seconds later), and the stack then exits; it starts again on another.
  return onFreePort((port) => startOnPort(name, env, port));
}

async function startOnPort(name: string, env: Record<string, string>, port: number): Promise<StackProcess> {
  mkdirSync(artifactsDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `membership-${name}-`));
  const logFile = join(artifactsDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ...env, PORT: String(port), LOCAL_DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const kill = async () => {
    const exited = new Promise((done) => child.once('exit', done));
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    await new Promise((done) => log.end(done));
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((ready, fail) => {
      let seen = '';
      const timer = setTimeout(
        () => fail(new Error(`${name}: npm start was not ready in 120 s:\n${seen.slice(-2000)}`)),
        120_000,
      );
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
        fail(new Error(`${name}: npm start exited with ${code}:\n${seen.slice(-2000)}`));
      });
    });
  } catch (error) {
    await kill();
    throw error;
  }

  const url = `http://localhost:${port}`;
  return {
    url,
    dataDir,
    logFile,
    async stop() {
      // What the stack sent, to search its log for it once stopped.
      const outbox = (await fetch(`${url}/dev/outbox.json`)
        .then((r) => r.json())
        .catch(() => [])) as { to: string; code?: string }[];
      await kill();
      const leaks = findLeaks(readFileSync(logFile, 'utf8'), {
        phones: [...new Set(outbox.map((m) => m.to.replace(/^\+/, '')))],
        codes: outbox.flatMap((m) => (m.code ? [m.code] : [])),
      });
      if (leaks.length > 0) throw new Error(`Personal data in the local stack's log (${logFile}): ${leaks.join('; ')}`);
    },
  };
}
