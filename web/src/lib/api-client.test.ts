import { afterEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { jsonResponse } from '../testing/render';
import { ApiError, apiRequest, backoffDelay, defaultRetryPolicy, type RetryNotice, setApiBasePath } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setApiBasePath('/api');
});

const schema = v.object({ value: v.number() });

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

const gatewayThrottle = () => jsonResponse(429, { message: 'Too Many Requests' });
const gatewayUnavailable = () => new Response('{"message":"Service Unavailable"}', { status: 503 });
/** A fake fetch answering from the list in turn (the last one again when it runs out). */
function answers(...list: (() => Response)[]) {
  let i = 0;
  const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(list[Math.min(i++, list.length - 1)]!()));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
/** No real waiting: the waits are recorded. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

describe('api client: a busy gateway, what is tried again', () => {
  it("tries API Gateway's own 429 again, telling the caller before each wait, until it succeeds", async () => {
    const fetchMock = answers(gatewayThrottle, gatewayThrottle, () => jsonResponse(200, { value: 3 }));
    const { waits, sleep } = fakeSleep();
    const notices: RetryNotice[] = [];
    await expect(
      apiRequest('/thing', {
        method: 'POST',
        body: {},
        schema,
        retry: { sleep, random: () => 0.5 },
        onRetry: (n) => notices.push(n),
      }),
    ).resolves.toEqual({ value: 3 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(notices.map((n) => [n.attempt, n.status])).toEqual([
      [1, 429],
      [2, 429],
    ]);
    // 0.5 s then 1 s, each jittered to between half and all of itself (here three quarters).
    expect(waits).toEqual([375, 750]);
    expect(notices.map((n) => n.delayMs)).toEqual(waits);
  });

  it('tries a gateway 503 and our SERVICE_BUSY again', async () => {
    const fetchMock = answers(
      gatewayUnavailable,
      () => jsonResponse(503, { error: { code: 'SERVICE_BUSY', message: 'm' } }),
      () => jsonResponse(200, { value: 4 }),
    );
    const { waits, sleep } = fakeSleep();
    await expect(apiRequest('/thing', { schema, retry: { sleep } })).resolves.toEqual({ value: 4 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(waits).toHaveLength(2);
  });

  it('never tries our own RATE_LIMITED again: it is a real limit, shown with its wait', async () => {
    const fetchMock = answers(() =>
      jsonResponse(429, { error: { code: 'RATE_LIMITED', message: 'm', retryAfterSeconds: 42 } }),
    );
    const { waits, sleep } = fakeSleep();
    const onRetry = vi.fn();
    const error = await failure(apiRequest('/thing', { schema, retry: { sleep }, onRetry }));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.details.retryAfterSeconds).toBe(42);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('does not try other errors of ours again, WHATSAPP_BUSY (503) included', async () => {
    const fetchMock = answers(() =>
      jsonResponse(503, { error: { code: 'WHATSAPP_BUSY', message: 'm', smsAvailable: true } }),
    );
    const error = await failure(apiRequest('/thing', { schema, retry: fakeSleep() }));
    expect(error.code).toBe('WHATSAPP_BUSY');
    expect(error.details.smsAvailable).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('api client: a busy gateway, how long it waits and when it stops', () => {
  it('gives up after 4 tries with SERVICE_BUSY, the waits growing and capped', async () => {
    const fetchMock = answers(gatewayThrottle);
    const { waits, sleep } = fakeSleep();
    const error = await failure(apiRequest('/thing', { schema, retry: { sleep, random: () => 0.999_999 } }));
    expect(error.code).toBe('SERVICE_BUSY');
    expect(error.status).toBe(429);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it('honours Retry-After (seconds) when it is longer than the backoff', async () => {
    answers(
      () => new Response('{"message":"Too Many Requests"}', { status: 429, headers: { 'retry-after': '3' } }),
      () => jsonResponse(200, { value: 5 }),
    );
    const { waits, sleep } = fakeSleep();
    await apiRequest('/thing', { schema, retry: { sleep } });
    expect(waits).toEqual([3000]);
  });

  it('does not wait blind for a Retry-After beyond the longest wait: it says when to try', async () => {
    const fetchMock = answers(
      () => new Response('{"message":"Too Many Requests"}', { status: 429, headers: { 'retry-after': '120' } }),
    );
    const { waits, sleep } = fakeSleep();
    const error = await failure(apiRequest('/thing', { schema, retry: { sleep } }));
    expect(error.code).toBe('SERVICE_BUSY');
    expect(error.details.retryAfterSeconds).toBe(120);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it('keeps every wait within half and all of 0.5 s doubling to 8 s', () => {
    for (const [attempt, ceiling] of [
      [1, 500],
      [2, 1000],
      [3, 2000],
      [4, 4000],
      [5, 8000],
      [9, 8000],
    ] as const) {
      expect(backoffDelay({ ...defaultRetryPolicy, random: () => 0 }, attempt)).toBe(ceiling / 2);
      expect(backoffDelay({ ...defaultRetryPolicy, random: () => 0.999_999 }, attempt)).toBe(ceiling);
    }
  });

  it('does not retry when told not to (a poll)', async () => {
    const fetchMock = answers(gatewayThrottle);
    expect((await failure(apiRequest('/thing', { schema, retry: false }))).code).toBe('SERVICE_BUSY');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when the caller aborts', async () => {
    answers(gatewayThrottle);
    const controller = new AbortController();
    const pending = apiRequest('/thing', { schema, signal: controller.signal, onRetry: () => controller.abort() });
    await expect(pending).rejects.toThrow();
  });
});
