// Small helpers shared by the local HTTP stand-ins (WhatsApp sandbox, webhook sink,
// captcha): one way to listen, read bodies, answer JSON and inject faults.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  /** `http://127.0.0.1:<port>`, with the real port when 0 was asked for. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops every connection, including requests held open on purpose. */
  close(): Promise<void>;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** Listens on 127.0.0.1. A handler that throws answers a 500 instead of crashing the process. */
export function startServer(port: number, handler: RequestHandler): Promise<RunningServer> {
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendJson(res, 500, { error: { message: `stand-in failure: ${String(error)}` } });
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          })),
      });
    });
  });
}

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage, limitBytes = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new BodyTooLargeError(`body larger than ${limitBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: string };

/** Reads and parses a JSON body; an empty, oversized or malformed body is `ok: false`. */
export async function readJson(req: IncomingMessage, limitBytes?: number): Promise<JsonBody> {
  let text: string;
  try {
    text = await readBody(req, limitBytes);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (text.trim() === '') return { ok: false, reason: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'body is not valid JSON' };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Path and query of a request, parsed. */
export function requestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://127.0.0.1');
}

/** A random id of URL-safe characters, e.g. for Meta's `fbtrace_id` or message ids. */
export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Faults armed by a test: the next `times` eligible requests fail with `mode`.
 * Arming again replaces what is left of the previous plan.
 */
export class FaultPlan<Mode extends string> {
  private mode: Mode | undefined;
  private remaining = 0;

  arm(times: number, mode: Mode): void {
    this.mode = mode;
    this.remaining = Math.max(0, Math.floor(times));
  }

  /** The fault for this request, if any, counting it as used. */
  take(): Mode | undefined {
    if (this.remaining <= 0 || this.mode === undefined) return undefined;
    this.remaining -= 1;
    return this.mode;
  }

  pending(): { mode: Mode | undefined; remaining: number } {
    return { mode: this.remaining > 0 ? this.mode : undefined, remaining: this.remaining };
  }

  clear(): void {
    this.mode = undefined;
    this.remaining = 0;
  }
}
