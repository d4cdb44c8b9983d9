import { apiErrorSchema } from '../../../rules/api';

export interface ApiErrorDetails {
  readonly fields?: Record<string, string>;
  readonly retryAfterSeconds?: number;
  readonly attemptsLeft?: number;
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
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'NETWORK_ERROR';
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
 * What a response is checked with: any Standard Schema (https://standardschema.dev), so
 * the public page's valibot schemas and the staff area's zod schemas both fit. Both
 * libraries validate synchronously.
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

interface RequestOptions<T> {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  /** Schema of a successful response body. */
  readonly schema: ResponseSchema<T>;
  readonly signal?: AbortSignal;
  /** Extra request headers (the staff area's Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls `${apiBasePath}${path}`; resolves with the parsed body or throws an ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const { method = 'GET', body, schema, signal, headers } = options;
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

  const payload = await readJson(response);
  if (!response.ok) {
    const parsed = check(apiErrorSchema, payload);
    if (parsed.ok) {
      const { code, message, ...details } = parsed.value.error;
      throw new ApiError(code, response.status, message, details);
    }
    throw new ApiError(codeForStatus(response.status), response.status, `HTTP ${response.status}`);
  }

  const parsed = check(schema, payload);
  if (!parsed.ok) throw new ApiError('INTERNAL', response.status, 'Unexpected response from the server');
  return parsed.value;
}
