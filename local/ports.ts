import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

// Linux hands out ports for outgoing connections from 32768–60999
// (/proc/sys/net/ipv4/ip_local_port_range), and `listen(0)` from the same range: a port
// found free that way can be taken by a client socket before a slow child (a JVM) binds it.
// Below that range only listeners live, and a random pick keeps parallel test lanes apart.
const LOW = 20_000;
const HIGH = 32_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port that is free right now on the loopback interface, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = randomInt(LOW, HIGH);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}

// Node's, Java's and Vite's words for it.
const portClash = (error: unknown) =>
  /EADDRINUSE|Address already in use|Port \d+ is already in use/.test(String(error));

/**
 * Starts a stand-in on a free port, and on another if the port was taken between the pick
 * and the bind (the stand-in's start fails with the bind error it printed).
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= attempts || !portClash(error)) throw error;
    }
  }
}

/** Thrown by a probe when waiting longer cannot help (the child died): `waitFor` stops at once. */
export class GaveUp extends Error {}

/** Polls until `probe` resolves, or fails after `timeoutMs` (or at once on `GaveUp`). */
export async function waitFor(probe: () => Promise<unknown>, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  let lastError: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      await probe();
      return;
    } catch (error) {
      if (error instanceof GaveUp) throw error;
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what} did not start within ${timeoutMs} ms: ${String(lastError)}`);
}
