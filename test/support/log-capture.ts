import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { threadId } from 'node:worker_threads';
import { afterAll, inject } from 'vitest';
import { localSecrets } from '../../local/config';
import { tenDigits } from './log-scan';
import { testStaff } from './staff';

// Setup file of the integration tier: every handler runs in the test's own process (the
// local stack's API adapter, queue and stream poller import the handler modules), so
// whatever a handler logs passes through this worker's process.stdout. This file tees
// it, and console output, into <run dir>/<worker>.log, and gathers into
// <worker>.secrets.jsonl what the suite used that must never be logged: numbers, codes,
// tokens and secrets, read off every request and answer that goes through fetch (the
// tests' calls to the API, the handlers' calls to the WhatsApp sandbox, the captcha
// stand-in and the webhook sink) and off the local secrets. The teardown in
// log-capture-setup.ts scans them once every worker is done.
//
// Handlers log at DEBUG here (AWS_LAMBDA_LOG_LEVEL outranks the POWERTOOLS_LOG_LEVEL a
// test sets), so that every line a handler can write is checked; the terminal still
// shows only the lines at or above the level the test asked for.

export interface CaptureFiles {
  readonly logFile: string;
  readonly secretsFile: string;
}

type SecretKind = 'phone' | 'code' | 'token' | 'secret';

interface CaptureState extends CaptureFiles {
  readonly fd: number;
  readonly secretsFd: number;
  readonly seen: Set<string>;
}

const STATE = Symbol.for('membership.logCapture');
const WRAPPED = Symbol.for('membership.logCapture.wrapped');
type Global = typeof globalThis & { [STATE]?: CaptureState };

/** This worker's capture files, once the setup file has run (integration tier only). */
export function captureFiles(): CaptureFiles | undefined {
  const state = (globalThis as Global)[STATE];
  return state && { logFile: state.logFile, secretsFile: state.secretsFile };
}

const levels: Record<string, number> = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 };

/** A Powertools log line below the level the running test set is kept off the terminal. */
function hiddenFromTerminal(text: string): boolean {
  if (!text.startsWith('{"level":')) return false;
  const level = /^\{"level":"(\w+)"/.exec(text)?.[1] ?? '';
  const wanted = (process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO').toUpperCase();
  return (levels[level] ?? 99) < (levels[wanted] ?? levels.INFO!);
}

function gather(state: CaptureState, kind: SecretKind, value: string): void {
  const key = `${kind}:${value}`;
  if (state.seen.has(key)) return;
  state.seen.add(key);
  writeSync(state.secretsFd, `${JSON.stringify({ kind, value })}\n`);
}

const secretKey = /token|password|secret|authorization|response/i;
const codeKey = /^(code|otp|text)$/;
const jwt = /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;

/** Every value of a JSON body, form body or query string that is a number, a code, a token or a secret. */
function gatherFromValues(state: CaptureState, entries: Iterable<[string, unknown]>): void {
  for (const [key, value] of entries) {
    if (value !== null && typeof value === 'object') {
      gatherFromValues(state, Object.entries(value));
      continue;
    }
    if (typeof value !== 'string' || value === '') continue;
    const phone = tenDigits(value);
    if (phone) gather(state, 'phone', `91${phone}`);
    // Only what could be one of our codes (six digits, lambdas/lib/codes.ts): a four-digit
    // value under `text` (a template parameter) is as likely a year, and every timestamp
    // logged has one.
    else if (codeKey.test(key) && /^\d{6}$/.test(value)) gather(state, 'code', value);
    else if (jwt.test(value)) gather(state, 'token', value);
    else if (secretKey.test(key) && value.length >= 8) gather(state, /token|response/i.test(key) ? 'token' : 'secret', value);
  }
}

function gatherFromText(state: CaptureState, text: string, contentType: string | null): void {
  if (!text) return;
  if (/json/.test(contentType ?? '') || /^[{[]/.test(text.trim())) {
    try {
      gatherFromValues(state, Object.entries({ body: JSON.parse(text) as unknown }));
      return;
    } catch {
      // Not JSON after all: read it as a form below.
    }
  }
  if (/x-www-form-urlencoded/.test(contentType ?? '')) gatherFromValues(state, new URLSearchParams(text));
}

function gatherFromHeaders(state: CaptureState, headers: Headers): void {
  const authorization = headers.get('authorization');
  if (!authorization) return;
  const [scheme, credential = ''] = authorization.split(/\s+/, 2);
  if (/^bearer$/i.test(scheme ?? '')) gather(state, 'token', credential);
  if (/^basic$/i.test(scheme ?? '')) {
    gather(state, 'secret', credential);
    const password = Buffer.from(credential, 'base64').toString('utf8').split(':').slice(1).join(':');
    if (password.length >= 8) gather(state, 'secret', password);
  }
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  return '';
}

function wrapFetch(state: CaptureState): void {
  const original = globalThis.fetch as typeof fetch & { [WRAPPED]?: true };
  if (original[WRAPPED]) return;
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    try {
      const request = input instanceof Request ? input.clone() : undefined;
      const url = new URL(request?.url ?? (input instanceof URL ? input.href : (input as string)));
      gatherFromValues(state, url.searchParams);
      const headers = new Headers(init?.headers ?? request?.headers);
      gatherFromHeaders(state, headers);
      const text = init?.body !== undefined ? bodyText(init.body) : request ? await request.text() : '';
      gatherFromText(state, text, headers.get('content-type'));
    } catch {
      // Gathering never breaks a request; what cannot be read is still scanned by pattern.
    }
    const response = await original(input, init);
    const contentType = response.headers.get('content-type');
    if (/json|x-www-form-urlencoded/.test(contentType ?? '')) {
      try {
        gatherFromText(state, await response.clone().text(), contentType);
      } catch {
        // As above.
      }
    }
    return response;
  };
  globalThis.fetch = Object.assign(wrapped, { [WRAPPED]: true as const });
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

function teeStream(state: CaptureState, stream: NodeJS.WriteStream): void {
  const target = stream as unknown as { write: Write & { [WRAPPED]?: true } };
  if (target.write[WRAPPED]) return;
  const original = target.write.bind(stream);
  const write: Write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    writeSync(state.fd, text);
    if (!hiddenFromTerminal(text)) return original(chunk, ...rest);
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    callback?.();
    return true;
  };
  target.write = Object.assign(write, { [WRAPPED]: true as const });
}

/** Vitest gives each test file its own console; what goes through it is kept too. */
function teeConsole(state: CaptureState): void {
  const target = console as Console & { [WRAPPED]?: true };
  if (target[WRAPPED]) return;
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => {
      writeSync(state.fd, `${format(...args)}\n`);
      original(...args);
    };
  }
  target[WRAPPED] = true;
}

function gatherKnownSecrets(state: CaptureState): void {
  const local = process.env.LOCAL_SECRETS ? (JSON.parse(process.env.LOCAL_SECRETS) as Record<string, unknown>) : {};
  const values = [
    ...Object.values(localSecrets),
    ...Object.values(local),
    ...Object.values(testStaff).map((s) => s.password),
    process.env.LOCAL_ADMIN_PASSWORD ?? 'Admin-Password-123!',
  ];
  for (const value of values) if (typeof value === 'string' && value.length >= 8) gather(state, 'secret', value);
}

function install(dir: string): CaptureState {
  const name = `worker-${process.pid}-${threadId}`;
  const logFile = join(dir, `${name}.log`);
  const secretsFile = join(dir, `${name}.secrets.jsonl`);
  const state: CaptureState = {
    logFile,
    secretsFile,
    fd: openSync(logFile, 'a'),
    secretsFd: openSync(secretsFile, 'a'),
    seen: new Set(),
  };
  process.once('exit', () => {
    closeSync(state.fd);
    closeSync(state.secretsFd);
  });
  return state;
}

const dir = inject('logCaptureDir');
if (dir) {
  const global = globalThis as Global;
  let state = global[STATE];
  if (state?.logFile.startsWith(dir) !== true) state = global[STATE] = install(dir);
  process.env.AWS_LAMBDA_LOG_LEVEL = 'DEBUG';
  teeStream(state, process.stdout);
  teeStream(state, process.stderr);
  teeConsole(state);
  wrapFetch(state);
  gatherKnownSecrets(state);
  const current = state;
  // A file may change the secrets it hands the local stack.
  afterAll(() => gatherKnownSecrets(current));
}
