// Part 4 of `npm run bench` (issue 7): requests per second and p50/p99 latency of the
// public flow's three routes (OTP request, OTP verify, submit) and the staff dashboard's
// first page, through the local API adapter (the route table and handler modules the stack
// deploys) against DynamoDB Local, with autocannon. The reference is the adapter's own
// overhead: the same adapter serving a handler that answers 200 at once.
// Measured: 93 s on 2 cores shared with other work (load average 16; startup and data included).
//
// Every timed request does real work. Each OTP request has a number of its own; each
// verify sends the code the WhatsApp sandbox received for a number of the OTP run; each
// submit spends a token of the verify run. The dashboard reads a page with a few
// thousand applications stored. Anything but a 2xx (or a socket error) counts in the
// route's non-2xx figure, whose budget is 0: a run of errors cannot pass as fast.
//
// What the figures are: the throughput of our code on this machine, not a forecast of
// Lambda's. Load generator, server, DynamoDB Local's JVM and the stand-ins share 2 cores;
// autocannon runs in a child process so that it does not also share the server's event
// loop. The captcha check and the WhatsApp send go to in-process stand-ins (in AWS each
// is a network call of tens to hundreds of milliseconds). Handlers log at WARN, as in the
// integration tier. Background work runs as under `npm start`: the stream poller keeps
// the rollups, and the outbound consumer delivers the welcome messages and webhooks of
// the submit run while it runs (so the submit run comes last).
//
// Rate limits: every request comes from 127.0.0.1, and the adapter takes the client
// address from the socket as API Gateway does (not from x-forwarded-for), so the bench
// raises the per-address OTP limit (OTP_MAX_PER_IP_PER_HOUR, read at cold start) for
// this process. The per-number limits stay as they are: every number is used once.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import type { RouteDefinition } from '../../lib/api-routes';
import { startApiAdapter } from '../../local/api-adapter';
import { localConfigSchema } from '../../local/config';
import { localDb } from '../../local/dynamodb';
import { freePort } from '../../local/ports';
import { startLocalStack } from '../../local/stack';
import { istDay } from '../../rules/ist';
import { goodCaptcha, submitBody } from '../../test/support/public-flow';
import { generateApplications, putAll, randomSource } from '../../test/support/rollups';
import { signIn } from '../../test/support/tokens';
import { atLeast, atMost, exactly, runPart, say } from '../figures';

/** Concurrent connections: enough to queue work in the server, few enough for 2 shared cores. */
const CONNECTIONS = 12;
/** Length of a run measured by time (no-op, dashboard). */
const SECONDS = 8;
/**
 * Length of the OTP request run. Longer than the others: its numbers feed the verify
 * run, which is several times faster, and their tokens the submit run.
 */
const OTP_SECONDS = 12;
/** Applications stored before the dashboard run (the page's cost does not grow with them). */
const PRELOADED = 1500;

interface Job {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  /** One body per request, in order (a run longer than the list would reuse them and fail). */
  readonly bodies?: readonly string[];
  /** Run for this many seconds, or make exactly `amount` requests. */
  readonly seconds?: number;
  readonly amount?: number;
  /** Hand back the bodies of 2xx responses. */
  readonly keep?: boolean;
}

interface Run {
  readonly requests: number;
  readonly seconds: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly kept: string[];
}

// The load generator's source: plain CommonJS run by node itself, so that nothing needs
// compiling. A child process rather than a worker thread: autocannon in a worker thread
// takes itself for one of its own workers and answers encoded histograms.
const driverSource = `
process.once('message', (job) => {
const autocannon = require(job.autocannonPath);
let next = 0;
const kept = [];
const request = { method: job.method, path: job.path, headers: job.headers };
if (job.bodies) request.setupRequest = (req) => ({ ...req, body: job.bodies[next++ % job.bodies.length] });
if (job.keep) request.onResponse = (status, body) => { if (status >= 200 && status < 300) kept.push(body); };
autocannon({
  url: job.url,
  connections: job.connections,
  ...(job.amount ? { amount: job.amount } : { duration: job.seconds }),
  requests: [request],
}).then((r) => process.send({
  requests: r.requests.total,
  seconds: r.duration,
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
  p50: r.latency.p50,
  p99: r.latency.p99,
  kept,
}, () => process.disconnect()));
});
`;
const autocannonPath = createRequire(import.meta.url).resolve('autocannon');

function cannon(job: Job): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', driverSource], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (run: Run) => resolve(run));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`the load generator exited with ${code}`)));
    child.send({ ...job, connections: CONNECTIONS, autocannonPath });
  });
}

const rps = (run: Run) => run.requests / run.seconds;

/** The adapter's overhead: a route outside the product's table, answered at once. */
const noopRoute: RouteDefinition = { method: 'POST', path: '/api/noop', handler: 'noop', access: 'public', tables: [] };
const noopHandler = async (): Promise<APIGatewayProxyResultV2> => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: '{}',
});

/** Numbers of this part: 7 followed by nine digits, none of them stored before. */
const mobile = (i: number) => `7${String(i).padStart(9, '0')}`;
const otpBody = (m: string) => JSON.stringify({ mobile: m, captchaToken: goodCaptcha });
const json = { 'content-type': 'application/json' };

/**
 * Budgets: wide enough for a machine shared with other work (the same run measured 28 and
 * 62 OTP requests a second an hour apart), narrow enough to catch a route that starts
 * doing several times the work. At 12 connections p50 is about 12 / rps.
 */
const budgets = {
  'no-op': { rps: 2000, p50: 20, p99: 100 },
  'otp request': { rps: 15, p50: 1000, p99: 3000 },
  'otp verify': { rps: 30, p50: 500, p99: 1500 },
  dashboard: { rps: 40, p50: 400, p99: 1500 },
  submit: { rps: 15, p50: 1000, p99: 3000 },
} as const;
type Route = keyof typeof budgets;

async function call(url: string, init: RequestInit, expected: number): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`warm-up ${new URL(url).pathname}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

runPart('throughput', async (add) => {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  process.env.OTP_MAX_PER_IP_PER_HOUR = '10000000';
  const config = localConfigSchema.parse({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' });
  const stack = await startLocalStack(config, (line) => {
    // One line per request would drown the table; keep what the stand-ins report.
    if (!/^[A-Z]+ \/\S* \d{3} \d+ms$/.test(line)) say(`stack: ${line}`);
  });
  const noop = await startApiAdapter({
    port: await freePort(),
    routes: [noopRoute],
    loadHandler: async () => noopHandler,
    jwt: { issuer: stack.pool.issuer, audience: [stack.pool.clientId] },
  });
  try {
    const db = localDb(stack.dynamoDbEndpoint);
    const { items } = generateApplications(randomSource(4), PRELOADED, 90, istDay(new Date()), 't');
    const staff = { authorization: `Bearer ${await signIn(stack.cognitoEndpoint, stack.pool.clientId, stack.admin)}` };

    // Cold starts (module imports, secrets, JWKS) happen here, not in the timed runs,
    // while the applications for the dashboard are stored.
    say(`storing ${PRELOADED} applications for the dashboard, and warming every route up`);
    let number = 0;
    const warmUp = async () => {
      for (let i = 0; i < 3; i++) {
        const m = mobile(number++);
        const post = (body: unknown) => ({ method: 'POST', headers: json, body: JSON.stringify(body) });
        await call(`${stack.apiUrl}/api/otp/request`, post({ mobile: m, captchaToken: goodCaptcha }), 200);
        const code = stack.whatsApp.latestOtp(`91${m}`);
        const { verificationToken } = await call(`${stack.apiUrl}/api/otp/verify`, post({ mobile: m, code }), 200);
        await call(`${stack.apiUrl}/api/applications`, post(submitBody(String(verificationToken))), 201);
        await call(`${stack.apiUrl}/api/admin/applications?pageSize=10`, { headers: staff }, 200);
        await call(`${noop.url}/api/noop`, post({ mobile: m, captchaToken: goodCaptcha }), 200);
      }
    };
    await Promise.all([putAll(db, stack.tableNames.applications, items, 8), warmUp()]);
    say('waiting for the stream consumer to count them in the rollups');
    await stack.applicationsStream.drain(120_000);

    const measure = async (
      route: Route,
      job: Omit<Job, 'headers'> & { headers?: Record<string, string> },
      reference?: Run,
    ) => {
      const run = await cannon({ headers: json, ...job });
      say(`${route}: ${run.requests} requests in ${run.seconds.toFixed(1)} s`);
      const budget = budgets[route];
      const against = (value: number | undefined) => (value === undefined ? {} : { reference: value });
      add(`throughput: ${route} rps`, atLeast(rps(run), 'req/s', budget.rps, against(reference && rps(reference))));
      add(`throughput: ${route} p50`, atMost(run.p50, 'ms', budget.p50, against(reference?.p50)));
      add(`throughput: ${route} p99`, atMost(run.p99, 'ms', budget.p99, against(reference?.p99)));
      add(`throughput: ${route} non-2xx`, exactly(run.non2xx + run.errors, 'responses', 0));
      return run;
    };

    const noopBody = otpBody(mobile(0));
    const reference = await measure('no-op', {
      url: noop.url,
      method: 'POST',
      path: '/api/noop',
      bodies: [noopBody],
      seconds: SECONDS,
    });

    // More numbers than the run can use: reusing one would be refused (cooldown) and counted.
    const numbers = Array.from({ length: 40_000 }, () => mobile(number++));
    const requests = {
      url: stack.apiUrl,
      method: 'POST',
      path: '/api/otp/request',
      bodies: numbers.map(otpBody),
      seconds: OTP_SECONDS,
    } as const;
    await measure('otp request', requests, reference);

    // The codes the sandbox received for the numbers of the OTP run, as a visitor reads them.
    const fresh = new Set(numbers.map((m) => `91${m}`));
    const codes = stack.whatsApp
      .messages()
      .filter((m) => m.kind === 'otp' && m.code && fresh.has(m.to))
      .map((m) => JSON.stringify({ mobile: m.to.slice(2), code: m.code }));
    if (codes.length < 100) throw new Error(`only ${codes.length} codes from the OTP run: too few to measure verify`);
    const verifies = {
      url: stack.apiUrl,
      method: 'POST',
      path: '/api/otp/verify',
      bodies: codes,
      amount: codes.length,
      keep: true,
    } as const;
    const verify = await measure('otp verify', verifies, reference);

    const page = {
      url: stack.apiUrl,
      method: 'GET',
      path: '/api/admin/applications?pageSize=10',
      headers: staff,
      seconds: SECONDS,
    } as const;
    await measure('dashboard', page, reference);

    const tokens = verify.kept.map((body) =>
      String((JSON.parse(body) as { verificationToken: unknown }).verificationToken),
    );
    if (tokens.length < 100)
      throw new Error(`only ${tokens.length} tokens from the verify run: too few to measure submit`);
    const submits = tokens.map((token) => JSON.stringify(submitBody(token)));
    const submit = {
      url: stack.apiUrl,
      method: 'POST',
      path: '/api/applications',
      bodies: submits,
      amount: submits.length,
    } as const;
    await measure('submit', submit, reference);
  } finally {
    await noop.close();
    await stack.stop();
  }
});
