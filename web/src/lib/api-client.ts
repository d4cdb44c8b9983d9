import { apiErrorSchema } from '../../../rules/api';

export interface ApiErrorDetails {
  readonly fields?: Record<string, string>;
  readonly retryAfterSeconds?: number;
  readonly attemptsLeft?: number;
  /** The stage has SMS: the visitor may get the code that way. */
  readonly smsAvailable?: boolean;
  /** ALREADY_REGISTERED from the code check: the verification, for "Get my card". */
  readonly verificationToken?: string;
  readonly expiresAt?: string;
}

/** Any failed API call: `code` is a stable code of rules/errors.ts (or one the server added since). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let basePath = '/api';

/** Set once at start from the runtime config's apiBasePath. */
export function setApiBasePath(path: string): void {
  basePath = path.replace(/\/+$/, '');
}

// When the body is not the API's error shape (a gateway page, a proxy failure).
function codeForStatus(status: number): string {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  // API Gateway's own throttle ({"message":"Too Many Requests"}) and an unavailable
  // service: a crowd, not this visitor's limit (ours comes as RATE_LIMITED in our shape).
  if (status === 429 || status === 503) return 'SERVICE_BUSY';
  if (status === 502 || status === 504) return 'NETWORK_ERROR';
  return 'INTERNAL';
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What a response is checked with: any Standard Schema (https://standardschema.dev). The
 * SPA's schemas are valibot's (rules/api.ts, rules/staff-api.ts), which validate
 * synchronously; zod's would fit too.
 */
export interface ResponseSchema<T> {
  readonly '~standard': {
    validate(value: unknown): { value: T; issues?: undefined } | { issues: readonly unknown[] } | Promise<unknown>;
  };
}

function check<T>(schema: ResponseSchema<T>, value: unknown): { ok: true; value: T } | { ok: false } {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) throw new TypeError('response schemas must validate synchronously');
  return result.issues ? { ok: false } : { ok: true, value: result.value };
}

/** One wait before another try: shown to the visitor as "busy, trying again". */
export interface RetryNotice {
  /** The try that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly status: number;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A value in [0, 1): the jitter. */
  readonly random: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal?.aborted) return fail(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) fail(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** 4 tries, waits of 0.5 s doubling to at most 8 s, each jittered to half or more of itself. */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  random: Math.random,
  sleep,
};

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds; undefined when absent or unreadable. */
function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The wait before try `attempt + 1`: exponential, capped, with "equal jitter" so a crowd spreads out. */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfter?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + (policy.random() * ceiling) / 2;
  return Math.round(retryAfter === undefined ? jittered : Math.max(jittered, retryAfter));
}

/**
 * A crowd, not a verdict: API Gateway's 429 and 503 (not our error shape), and our own
 * SERVICE_BUSY. Our RATE_LIMITED (a real per-number limit) and every other error are final.
 */
function isBusy(status: number, payload: unknown): boolean {
  const ours = check(apiErrorSchema, payload);
  if (ours.ok) return ours.value.error.code === 'SERVICE_BUSY';
  return status === 429 || status === 503;
}

interface RequestOptions<T> {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  /** Schema of a successful response body. */
  readonly schema: ResponseSchema<T>;
  readonly signal?: AbortSignal;
  /** Extra request headers (the staff area's Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How a busy answer is tried again; `false`: not at all (a poll whose next round is the retry). */
  readonly retry?: Partial<RetryPolicy> | false;
  /** Called before each wait, so that the page can say "busy, trying again". */
  readonly onRetry?: (notice: RetryNotice) => void;
}

/**
 * Calls `${apiBasePath}${path}`; resolves with the parsed body or throws an ApiError. A busy
 * answer (see isBusy) is tried again after a jittered, growing wait (Retry-After honoured
 * when it fits within the policy's longest wait); when the tries run out it throws
 * SERVICE_BUSY.
 */
export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const policy = options.retry === false ? undefined : { ...defaultRetryPolicy, ...options.retry };
  const attempts = policy ? Math.max(1, policy.attempts) : 1;
  for (let attempt = 1; ; attempt++) {
    const { response, payload } = await send(path, options);
    if (response.ok) {
      const parsed = check(options.schema, payload);
      if (!parsed.ok) throw new ApiError('INTERNAL', response.status, 'Unexpected response from the server');
      return parsed.value;
    }
    if (policy && attempt < attempts && isBusy(response.status, payload)) {
      const hinted = retryAfterMs(response);
      // A Retry-After longer than the longest wait is a verdict: say so instead of waiting blind.
      if (hinted === undefined || hinted <= policy.maxDelayMs) {
        const delayMs = backoffDelay(policy, attempt, hinted);
        options.onRetry?.({ attempt, delayMs, status: response.status });
        await policy.sleep(delayMs, options.signal);
        continue;
      }
    }
    throw errorOf(response, payload);
  }
}

function errorOf(response: Response, payload: unknown): ApiError {
  const parsed = check(apiErrorSchema, payload);
  if (parsed.ok) {
    const { code, message, ...details } = parsed.value.error;
    return new ApiError(code, response.status, message, details);
  }
  const hinted = retryAfterMs(response);
  const code = codeForStatus(response.status);
  return new ApiError(
    code,
    response.status,
    `HTTP ${response.status}`,
    code === 'SERVICE_BUSY' && hinted !== undefined ? { retryAfterSeconds: Math.ceil(hinted / 1000) } : {},
  );
}

async function send<T>(path: string, options: RequestOptions<T>): Promise<{ response: Response; payload: unknown }> {
  const { method = 'GET', body, signal, headers } = options;
  let response: Response;
  try {
    response = await fetch(`${basePath}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 0, 'The request did not reach the server');
  }
  return { response, payload: await readJson(response) };
}
