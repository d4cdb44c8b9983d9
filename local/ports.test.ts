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

  it("knows Vite's word for a clash (the stack's web server)", async () => {
    let calls = 0;
    const port = await onFreePort(async (candidate) => {
      calls++;
      if (calls === 1) throw new Error(`npm start exited with 1: Error: Port ${candidate} is already in use`);
      return candidate;
    });
    expect(calls).toBe(2);
    expect(port).toBeGreaterThanOrEqual(20_000);
  });

  it('does not retry a failure that is not a clash, nor a clash forever', async () => {
    let calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        throw new Error('the JVM is missing');
      }),
    ).rejects.toThrow('the JVM is missing');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        throw new Error('java.net.BindException: Address already in use');
      }),
    ).rejects.toThrow('Address already in use');
    expect(calls).toBe(3);
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
