// A stand-in for the automation workflow endpoint that receives each application:
// HTTP Basic auth, a JSON body, and faults on demand so that retries and the
// dead-letter path can be seen working.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { FaultPlan, readJson, requestUrl, type RunningServer, sendJson, startServer } from './http-util';

const sinkFaultModes = ['http500', 'timeout'] as const;
type SinkFaultMode = (typeof sinkFaultModes)[number];

export interface WebhookDelivery {
  /** ISO time of acceptance. */
  readonly at: string;
  readonly path: string;
  readonly body: unknown;
  /** Request headers, lower-case, without `authorization`. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface WebhookSinkOptions {
  port: number;
  username: string;
  password: string;
}

export interface WebhookSink extends RunningServer {
  /** Accepted deliveries, newest first. */
  deliveries(): WebhookDelivery[];
  clear(): void;
  /** Forgets deliveries, armed faults and the down state. */
  reset(): void;
  /** The next `times` authorised deliveries fail with `mode` (default once). */
  failNext(options: { times?: number; mode: SinkFaultMode }): void;
  /** While down, every delivery gets 503. */
  setDown(down: boolean): void;
}

const failSchema = z.object({ times: z.number().int().min(1).max(10_000).default(1), mode: z.enum(sinkFaultModes) });
const downSchema = z.object({ down: z.boolean() });

const realm = 'Basic realm="webhook-sink", charset="UTF-8"';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function authorised(header: string | undefined, username: string, password: string): boolean {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Evaluate both comparisons so that timing does not tell which part was wrong.
  const userOk = sameSecret(decoded.slice(0, colon), username);
  const passwordOk = sameSecret(decoded.slice(colon + 1), password);
  return userOk && passwordOk;
}

function keptHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'authorization' || value === undefined) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

export async function startWebhookSink(options: WebhookSinkOptions): Promise<WebhookSink> {
  let recorded: WebhookDelivery[] = [];
  let down = false;
  const faults = new FaultPlan<SinkFaultMode>();

  const reset = () => {
    recorded = [];
    down = false;
    faults.clear();
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === 'GET' && path === '/__sink/deliveries') return sendJson(res, 200, { deliveries: recorded });
    if (req.method === 'POST' && path === '/__sink/reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && (path === '/__sink/fail' || path === '/__sink/down')) {
      const body = await readJson(req);
      const value = body.ok ? body.value : undefined;
      if (path === '/__sink/fail') {
        const parsed = failSchema.safeParse(value);
        if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
        faults.arm(parsed.data.times, parsed.data.mode);
        return sendJson(res, 200, { ok: true, ...parsed.data });
      }
      const parsed = downSchema.safeParse(value);
      if (!parsed.success) return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error) } });
      down = parsed.data.down;
      return sendJson(res, 200, { ok: true, down });
    }
    sendJson(res, 404, { error: { message: `no control route ${req.method} ${path}` } });
  };

  const server = await startServer(options.port, async (req, res) => {
    const path = requestUrl(req).pathname;
    if (path.startsWith('/__sink/')) return handleControl(req, res, path);
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
    if (down) return sendJson(res, 503, { error: 'service unavailable' }, { 'retry-after': '5' });
    if (!authorised(req.headers.authorization, options.username, options.password)) {
      return sendJson(res, 401, { error: 'unauthorized' }, { 'www-authenticate': realm });
    }
    const body = await readJson(req);
    if (!body.ok) return sendJson(res, 400, { error: `a JSON body is required: ${body.reason}` });
    switch (faults.take()) {
      case 'http500':
        return sendJson(res, 500, { error: 'internal error (injected)' });
      case 'timeout':
        return; // never answer; close() drops the socket
      case undefined:
        break;
    }
    recorded.unshift({ at: new Date().toISOString(), path, body: body.value, headers: keptHeaders(req.headers) });
    sendJson(res, 200, { ok: true });
  });

  return {
    ...server,
    deliveries: () => [...recorded],
    clear: () => {
      recorded = [];
    },
    reset,
    failNext: ({ times = 1, mode }) => faults.arm(times, mode),
    setDown: (value) => {
      down = value;
    },
  };
}
