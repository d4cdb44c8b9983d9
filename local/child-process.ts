import type { ChildProcess } from 'node:child_process';

/** A stand-in running as a child process: its recent output, whether it died, and a clean stop. */
export interface ManagedChild {
  exited(): boolean;
  output(): string;
  stop(): Promise<void>;
}

export function manageChild(child: ChildProcess): ManagedChild {
  let exited = false;
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', () => (exited = true));
  return {
    exited: () => exited,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
