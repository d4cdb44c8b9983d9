import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyResultV2,
  Context,
} from 'aws-lambda';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { RouteDefinition } from '../lib/api-routes';
import { apiFunctionTimeoutSeconds } from '../lib/functions';

type HttpHandler = (
  event: APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer,
  context: Context,
) => Promise<APIGatewayProxyResultV2>;

interface JwtAuthorizerConfig {
  /** Token issuer: the pool's URL. Tokens from any other issuer are refused. */
  readonly issuer: string;
  /** Accepted audiences: matched against `aud` (id tokens) or `client_id` (access tokens). */
  readonly audience: readonly string[];
}

/** Extra routes served beside the API (the /dev pages, /config.json). Return false to pass. */
type ExtraRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface ApiAdapterOptions {
  readonly port: number;
  readonly host?: string;
  readonly routes: readonly RouteDefinition[];
  readonly loadHandler: (name: string) => Promise<HttpHandler>;
  readonly jwt: JwtAuthorizerConfig;
  readonly extra?: ExtraRoutes;
  /** One line per request, without query string or body (they may hold personal data). */
  readonly log?: (line: string) => void;
}

export interface ApiAdapter {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly routeKey: string;
  readonly pattern: RegExp;
  readonly params: readonly string[];
}

/** '/api/admin/applications/{id}' -> a regex with named parameters; '{proxy+}' is greedy. */
function compile(route: RouteDefinition): CompiledRoute {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      const greedy = /^\{(\w+)\+\}$/.exec(part);
      if (greedy?.[1]) {
        params.push(greedy[1]);
        return '(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(part);
      if (param?.[1]) {
        params.push(param[1]);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, routeKey: `${route.method} ${route.path}`, pattern: new RegExp(`^${source}$`), params };
}

const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isTextual(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript)|[^;]*\+json)/i.test(contentType);
}

/** API Gateway hands every JWT claim to the integration as a string; arrays as "[a b]". */
function claimsAsApiGatewayDoes(payload: JWTPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload)) {
    claims[key] = Array.isArray(value) ? `[${value.join(' ')}]` : typeof value === 'string' ? value : String(value);
  }
  return claims;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Serves the route table the way API Gateway's HTTP API does: each request becomes a
 * payload format 2.0 event for the same handler module the CDK stack deploys; staff
 * routes pass a JWT check first, and the claims land where the authorizer puts them.
 */
export async function startApiAdapter(options: ApiAdapterOptions): Promise<ApiAdapter> {
  const compiled = options.routes.map(compile);
  const jwks = createRemoteJWKSet(new URL(`${options.jwt.issuer}/.well-known/jwks.json`));
  const handlers = new Map<string, Promise<HttpHandler>>();
  const handlerFor = (name: string) => {
    let handler = handlers.get(name);
    if (!handler) {
      handler = options.loadHandler(name);
      handlers.set(name, handler);
    }
    return handler;
  };

  async function authorize(header: string | undefined): Promise<Record<string, string> | undefined> {
    if (!header) return undefined;
    const token = header.replace(/^Bearer\s+/i, '').trim();
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: options.jwt.issuer });
      const audiences = [payload.aud, payload.client_id].flat().filter((a): a is string => typeof a === 'string');
      if (!audiences.some((a) => options.jwt.audience.includes(a))) return undefined;
      return claimsAsApiGatewayDoes(payload);
    } catch {
      return undefined;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (options.extra && (await options.extra(req, res, url))) return;

    const matches = compiled.filter((c) => c.pattern.test(url.pathname));
    const match = matches.find((c) => c.route.method === method);
    const log = (status: number) =>
      options.log?.(
        `${method} ${match?.route.path ?? url.pathname.split('/').slice(0, 3).join('/')} ${status} ${Date.now() - started}ms`,
      );
    if (!match) {
      // API Gateway's own answer for an unknown route.
      sendJson(res, 404, { message: 'Not Found' });
      return log(404);
    }

    let claims: Record<string, string> | undefined;
    if (match.route.access === 'staff') {
      claims = await authorize(req.headers.authorization);
      if (!claims) {
        sendJson(res, 401, { message: 'Unauthorized' });
        return log(401);
      }
    }

    const body = await readBody(req);
    if (body === 'too-large') {
      sendJson(res, 413, { message: 'Request Entity Too Large' });
      return log(413);
    }
    const values = match.pattern.exec(url.pathname)?.slice(1) ?? [];
    const decoded = values.map(decodePathSegment);
    if (decoded.includes(undefined)) {
      // A malformed percent-encoding (`%ZZ`): API Gateway answers 400 before any function runs.
      sendJson(res, 400, { message: 'Bad Request' });
      return log(400);
    }
    const pathParameters = Object.fromEntries(match.params.map((name, i) => [name, decoded[i] ?? '']));
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined && key !== 'cookie') headers[key] = Array.isArray(value) ? value.join(',') : value;
    }
    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
    const textual = isTextual(req.headers['content-type']);
    const now = new Date();
    const requestId = randomUUID();
    const event: APIGatewayProxyEventV2WithJWTAuthorizer = {
      version: '2.0',
      routeKey: match.routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      ...(req.headers.cookie && { cookies: req.headers.cookie.split(/;\s*/) }),
      headers,
      ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
      ...(match.params.length > 0 && { pathParameters }),
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: req.headers.host ?? 'localhost',
        domainPrefix: 'localhost',
        http: {
          method,
          path: url.pathname,
          protocol: `HTTP/${req.httpVersion}`,
          sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
          userAgent: req.headers['user-agent'] ?? '',
        },
        requestId,
        routeKey: match.routeKey,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
        authorizer: claims
          ? { principalId: '', integrationLatency: 0, jwt: { claims, scopes: [] } }
          : (undefined as never),
      },
      ...(body.length > 0 && {
        body: textual ? body.toString('utf8') : body.toString('base64'),
      }),
      isBase64Encoded: body.length > 0 && !textual,
    };

    let result: APIGatewayProxyResultV2;
    try {
      const handler = await handlerFor(match.route.handler);
      result = await withinTimeout(handler(event, localContext(match.route.handler, requestId)));
    } catch (error) {
      // What API Gateway answers when the integration fails (a crash, or Lambda's timeout).
      options.log?.(`handler ${match.route.handler} threw ${(error as Error).name}`);
      sendJson(res, 500, { message: 'Internal Server Error' });
      return log(500);
    }
    if (typeof result === 'string' || result === null || typeof result !== 'object' || !('statusCode' in result)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(typeof result === 'string' ? result : JSON.stringify(result));
      return log(200);
    }
    const status = result.statusCode ?? 200;
    const outHeaders: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(result.headers ?? {})) outHeaders[key] = String(value);
    if (result.cookies?.length) outHeaders['set-cookie'] = result.cookies;
    res.writeHead(status, outHeaders);
    res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
    log(status);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function decodePathSegment(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The function's timeout here: Lambda's, or the test tiers' longer one. */
const localTimeoutSeconds = () => Number(process.env.LOCAL_FUNCTION_TIMEOUT_SECONDS) || apiFunctionTimeoutSeconds;

/**
 * Lambda stops an invocation at its timeout: the handler's answer after it is lost. The
 * test tiers stop a handler later (LOCAL_FUNCTION_TIMEOUT_SECONDS, vitest.config.ts),
 * because one loaded process on two cores runs a handler several times slower than
 * Lambda; the handler's clock (getRemainingTimeInMillis) counts the same timeout, since
 * middy answers a TimeoutError at that clock's end and a deadline-aware handler (the bulk
 * status change) shares out what it says is left: a 10 s clock under a 30 s stop made both
 * fail at 10 s.
 */
async function withinTimeout<T>(running: Promise<T>): Promise<T> {
  const seconds = localTimeoutSeconds();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`Task timed out after ${seconds} seconds`);
      error.name = 'TimeoutError';
      reject(error);
    }, seconds * 1000);
  });
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function localContext(functionName: string, awsRequestId: string): Context {
  const started = Date.now();
  const functionTimeoutMs = localTimeoutSeconds() * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, functionTimeoutMs - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
