import type { z } from 'zod';
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

interface RequestOptions<S extends z.ZodType> {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  /** Schema of a successful response body. */
  readonly schema: S;
  readonly signal?: AbortSignal;
  /** Extra request headers (the staff area's Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls `${apiBasePath}${path}`; resolves with the parsed body or throws an ApiError. */
export async function apiRequest<S extends z.ZodType>(path: string, options: RequestOptions<S>): Promise<z.infer<S>> {
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
    const parsed = apiErrorSchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, ...details } = parsed.data.error;
      throw new ApiError(code, response.status, message, details);
    }
    throw new ApiError(codeForStatus(response.status), response.status, `HTTP ${response.status}`);
  }

  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError('INTERNAL', response.status, 'Unexpected response from the server');
  return parsed.data;
}
