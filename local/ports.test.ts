import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, GaveUp, onFreePort, waitFor } from './ports';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

const listen = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(port));
  });

describe('ports for the stand-ins', () => {
  it('picks a free port below the range outgoing connections take', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    await expect(listen(port)).resolves.toBe(port);
  });

  it('starts again on another port when the picked one is taken before the bind', async () => {
    const tried: number[] = [];
    const port = await onFreePort(async (candidate) => {
      tried.push(candidate);
      // The first time, something else binds the port between the pick and the start.
      if (tried.length === 1) await listen(candidate);
      return listen(candidate);
    });
    expect(tried).toHaveLength(2);
    expect(port).toBe(tried[1]);
    expect(tried[1]).not.toBe(tried[0]);
  });

  it.each([
    ['Node', 'listen EADDRINUSE: address already in use 127.0.0.1:{port}'],
    ['Java', 'java.net.BindException: Address already in use'],
    ['Vite', 'npm start exited with 1: Error: Port {port} is already in use'],
  ])("knows %s's word for a clash", async (_, words) => {
    const tried: number[] = [];
    const port = await onFreePort(async (candidate) => {
      tried.push(candidate);
      if (tried.length === 1) throw new Error(words.replace('{port}', String(candidate)));
      return candidate;
    });
    expect(tried).toHaveLength(2);
    expect(port).toBe(tried[1]);
  });

  it('does not retry a failure that is not a clash, nor a clash forever', async () => {
    /** How many starts `onFreePort` made when every start fails with `message`. */
    const startsFailingWith = async (message: string) => {
      let calls = 0;
      const failing = async () => {
        calls++;
        throw new Error(message);
      };
      await expect(onFreePort(failing)).rejects.toThrow(message);
      return calls;
    };
    expect(await startsFailingWith('the JVM is missing')).toBe(1);
    expect(await startsFailingWith('java.net.BindException: Address already in use')).toBe(3);
  });

  it('stops waiting at once when the probe gives up (a child that died)', async () => {
    let probes = 0;
    const probe = async () => {
      probes++;
      throw new GaveUp('DynamoDB Local exited: BindException');
    };
    await expect(waitFor(probe, 'DynamoDB Local')).rejects.toThrow('exited');
    expect(probes).toBe(1);
  });
});
