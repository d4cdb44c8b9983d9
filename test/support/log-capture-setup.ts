import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findLeaksInLines, type Secrets } from './log-scan';

// Global setup of the integration tier, beside integration-setup.ts: gives the run its
// own capture folder (runs in the same checkout do not mix), and once every worker is
// done, scans every line test/support/log-capture.ts captured for the numbers, codes,
// tokens and secrets the suite used, and for any full mobile number or JWT at all.
//
// Vitest 4 only logs an error thrown by a global teardown ("error during close") and
// exits 0, so a failure here also sets process.exitCode. This file comes first in
// `globalSetup`: teardowns run in reverse order, so the servers of
// integration-setup.ts are already stopped when this one throws.

export const logsRoot = resolve(import.meta.dirname, '../../.test-artifacts/logs');
/** Written by test/integration/log-capture.test.ts: the handler messages it saw captured. */
export const selfCheckFile = 'self-check.json';

export interface CaptureReport {
  readonly workers: number;
  readonly lines: number;
  /** Powertools lines of the handlers (service "membership"). */
  readonly handlerLines: number;
  readonly messages: ReadonlySet<string>;
  /** What leaked and where ("code in worker-1-0.log:42"), never the value. */
  readonly leaks: readonly string[];
}

function readSecrets(dir: string, files: readonly string[]): Required<Secrets> {
  const secrets = { phones: [] as string[], codes: [] as string[], tokens: [] as string[], secrets: [] as string[] };
  const lists = { phone: secrets.phones, code: secrets.codes, token: secrets.tokens, secret: secrets.secrets };
  for (const file of files.filter((f) => f.endsWith('.secrets.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const { kind, value } = JSON.parse(line) as { kind: keyof typeof lists; value: string };
      lists[kind].push(value);
    }
  }
  return secrets;
}

export function scanCaptureDir(dir: string): CaptureReport {
  const files = readdirSync(dir);
  const secrets = readSecrets(dir, files);
  const logs = files.filter((f) => f.endsWith('.log'));
  let lines = 0;
  let handlerLines = 0;
  const messages = new Set<string>();
  const leaks: string[] = [];
  for (const file of logs) {
    const content = readFileSync(join(dir, file), 'utf8').split('\n');
    lines += content.length;
    for (const line of content) {
      if (!line.startsWith('{"level":')) continue;
      try {
        const item = JSON.parse(line) as { service?: unknown; message?: unknown };
        if (item.service !== 'membership') continue;
        handlerLines += 1;
        if (typeof item.message === 'string') messages.add(item.message);
      } catch {
        // Not one whole JSON line: scanned below all the same.
      }
    }
    for (const { what, line } of findLeaksInLines(content, secrets, { patterns: true })) leaks.push(`${what} in ${file}:${line}`);
  }
  return { workers: logs.length, lines, handlerLines, messages, leaks };
}

/** The capture folders of runs whose process is gone; a running one is left alone. */
function removeFinishedRuns(): void {
  for (const name of readdirSync(logsRoot)) {
    const pid = Number(/^integration-\d+-(\d+)$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(logsRoot, name), { recursive: true, force: true });
    }
  }
}

export default function setup(project: TestProject) {
  mkdirSync(logsRoot, { recursive: true });
  removeFinishedRuns();
  const dir = join(logsRoot, `integration-${Date.now()}-${process.pid}`);
  mkdirSync(dir);
  project.provide('logCaptureDir', dir);

  return () => {
    const report = scanCaptureDir(dir);
    const summary =
      `Log capture (${dir}): ${report.lines} lines from ${report.workers} worker(s), ` +
      `${report.handlerLines} of them handler lines, ${report.messages.size} distinct messages`;
    writeFileSync(join(dir, 'report.txt'), `${summary}\n${report.leaks.join('\n')}\n`);
    const fail = (message: string): never => {
      process.exitCode = 1;
      throw new Error(message);
    };
    if (report.leaks.length > 0) {
      fail(`${summary}.\nPersonal data or secrets in the handlers' logs:\n  ${report.leaks.join('\n  ')}`);
    }
    // The capture must see what it checks: when the self-check ran, what it saw is here too.
    const selfCheck = join(dir, selfCheckFile);
    if (existsSync(selfCheck)) {
      const expected = JSON.parse(readFileSync(selfCheck, 'utf8')) as string[];
      const missing = expected.filter((m) => !report.messages.has(m));
      if (report.handlerLines === 0 || missing.length > 0) {
        fail(`${summary}: the scan did not see the handler lines it must check (missing: ${missing.join(', ')})`);
      }
    }
    console.log(`${summary}; no phone number, code, token or secret in any of them.`);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's capture folder, for test/support/log-capture.ts. */
    logCaptureDir: string;
  }
}
