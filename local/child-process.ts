import type { ChildProcess } from 'node:child_process';
import { GaveUp, waitFor } from './ports';

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

/** A stand-in served by a child process, reached through an SDK client. */
export interface ServedChild<Client> {
  readonly endpoint: string;
  readonly client: Client;
  stop(): Promise<void>;
}

/**
 * Waits until the child answers `probe` (failing with its last output if it dies first),
 * and stops client and child together.
 */
export async function whenServing<Client extends { destroy(): void }>(
  what: string,
  child: ManagedChild,
  endpoint: string,
  client: Client,
  probe: (client: Client) => Promise<unknown>,
): Promise<ServedChild<Client>> {
  try {
    await waitFor(async () => {
      if (child.exited()) throw new GaveUp(`${what} exited: ${child.output().slice(-500)}`);
      await probe(client);
    }, what);
  } catch (error) {
    client.destroy();
    await child.stop();
    throw error;
  }
  return {
    endpoint,
    client,
    stop: async () => {
      client.destroy();
      await child.stop();
    },
  };
}
