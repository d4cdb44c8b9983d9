import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse } from '../testing/render';
import { ApiError, apiRequest, setApiBasePath } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setApiBasePath('/api');
});

const schema = z.object({ value: z.number() });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('api client', () => {
  it('returns the parsed body of a success, under the configured base path', async () => {
    const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { value: 1, extra: true })));
    vi.stubGlobal('fetch', fetchMock);
    setApiBasePath('/v1/');
    await expect(apiRequest('/thing', { schema })).resolves.toEqual({ value: 1 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/v1/thing');
  });

  it('throws the code and details of an API error body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(jsonResponse(429, { error: { code: 'RATE_LIMITED', message: 'm', retryAfterSeconds: 42 } })),
      ),
    );
    const error = await failure(apiRequest('/thing', { schema }));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.status).toBe(429);
    expect(error.details.retryAfterSeconds).toBe(42);
  });

  it('derives a code from the status when the error body is not the API shape', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))),
    );
    expect((await failure(apiRequest('/thing', { schema }))).code).toBe('NETWORK_ERROR');
  });

  it('reports a network failure as NETWORK_ERROR', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect((await failure(apiRequest('/thing', { schema }))).code).toBe('NETWORK_ERROR');
  });

  it('refuses a success body of the wrong shape', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { value: 'one' }))),
    );
    expect((await failure(apiRequest('/thing', { schema }))).code).toBe('INTERNAL');
  });

  it('sends a JSON body', async () => {
    const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { value: 2 })));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('/thing', { method: 'POST', body: { a: 1 }, schema });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"a":1}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });
});
