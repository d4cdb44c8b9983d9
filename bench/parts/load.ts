// Part 5 of `npm run bench` (issue 7): correctness under load, as figures with exact
// budgets. 1,000 applicants, 100 at a time, each walk the public flow over HTTP (OTP
// request, the code from the WhatsApp sandbox, verify, submit) against the whole local
// stack; then two races for one number each: 100 simultaneous submits with the one
// verification token a visitor holds (a double tap, a retrying client), and 100
// simultaneous submits with 100 tokens for the same number (as if verified again and
// again: tokens minted with the local signing key, so that the number's guard is tested
// and not only the spending of a token). Once the outbound queue has drained, what is
// stored and delivered is counted: applications in the table, welcome messages the
// sandbox accepted, webhooks the sink received, duplicates, dead letters.
// Measured: 75 to 95 s on 2 cores shared with other work (load average 16).
//
// The clients run in the server's process (a pool of 100 async workers), each applicant
// from a client address of its own (127.0.x.y; the adapter reads the socket's address as
// API Gateway does), so the per-address OTP limit sees 1,000 visitors, not one. Rate
// limits are the product's defaults. The applicants/s figure is a floor for this machine,
// not a capacity: the whole product runs in one process, where AWS gives each concurrent
// request a container of its own. For the same reason 20 applicants warm the stack up
// first (handler modules loaded, DynamoDB Local's JIT warm), as a deployed stage is warm:
// 100 first requests at once on a cold local stack wait together, and some pass the
// functions' 10 s timeout, which the adapter enforces. The queue's first retry delay is
// 5 s (LOCAL_QUEUE_VISIBILITY_MS) instead of 30 s, so that a failing message would reach
// the dead letters within the run (5 + 10 + 20 + 40 s) instead of after it.
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { signVerification } from '../../lambdas/lib/codes';
import { localConfigSchema, localSecrets } from '../../local/config';
import { localDynamoClient } from '../../local/dynamodb';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { goodCaptcha, post, submitBody } from '../../test/support/public-flow';
import { inParallel } from '../../test/support/rollups';
import { type Answer, count, drainOutbound, extra, percentile, postFrom, scanApplications } from '../applicants';
import { atLeast, atMost, exactly, runPart, say } from '../figures';

const APPLICANTS = 1000;
const CONCURRENCY = 100;
const RACE = 100;
const WARM_UP = 20;

/** Numbers of this part: 8 and nine digits; the races use their own. */
const mobile = (i: number) => `8${String(i).padStart(9, '0')}`;
const sameTokenNumber = '8100000000';
const manyTokensNumber = '8200000000';

type Step = 'request' | 'verify' | 'submit';
const stepLabel: Record<Step, string> = { request: 'otp request', verify: 'otp verify', submit: 'submit' };
type Outcome = { ok: true } | { ok: false; step: Step; status: number; code: string };
/** Milliseconds each step took, for the latency figures. */
const took: Record<Step, number[]> = { request: [], verify: [], submit: [] };

async function apply(stack: LocalStack, m: string, from: string): Promise<Outcome> {
  const step = async (name: Step, path: string, body: unknown, expected: number) => {
    const started = performance.now();
    const answer = await postFrom(stack.apiUrl, from, path, body);
    took[name].push(performance.now() - started);
    return { answer, failed: answer.status !== expected };
  };
  const fail = (name: Step, { status, body }: Answer): Outcome => ({
    ok: false,
    step: name,
    status,
    code: body.error?.code ?? '',
  });
  const requested = await step('request', '/api/otp/request', { mobile: m, captchaToken: goodCaptcha }, 200);
  if (requested.failed) return fail('request', requested.answer);
  // What the visitor reads on the phone.
  const code = stack.whatsApp.latestOtp(`91${m}`);
  const verified = await step('verify', '/api/otp/verify', { mobile: m, code }, 200);
  if (verified.failed) return fail('verify', verified.answer);
  const token = String(verified.answer.body.verificationToken);
  const submitted = await step('submit', '/api/applications', submitBody(token), 201);
  if (submitted.failed) return fail('submit', submitted.answer);
  return { ok: true };
}

/** 100 submits at once; the statuses they got. */
async function race(stack: LocalStack, tokens: readonly string[]): Promise<number[]> {
  const bodies = tokens.map((token) => JSON.stringify(submitBody(token)));
  const answers = await Promise.all(bodies.map((body) => post(stack.apiUrl, '/api/applications', body)));
  return answers.map((a) => a.status);
}

runPart('load', async (add) => {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const config = localConfigSchema.parse({
    LOCAL_PERSISTENCE: 'memory',
    LOCAL_WEB: 'false',
    LOCAL_QUEUE_VISIBILITY_MS: '5000',
  });
  const stack = await startLocalStack(config, (line) => {
    if (!/^[A-Z]+ \/\S* \d{3} \d+ms$/.test(line)) say(`stack: ${line}`);
  });
  const client = localDynamoClient(stack.dynamoDbEndpoint);
  try {
    const db = DynamoDBDocumentClient.from(client);

    // A deployed stage is warm: handlers loaded, DynamoDB Local's JIT past its first
    // requests. Without this, the first 100 requests wait together for the handler
    // modules and a cold JVM, and some pass the 10 s function timeout (one process stands
    // in for 100 Lambda containers here).
    say(`warming up with ${WARM_UP} applicants`);
    const warmUp = Array.from({ length: WARM_UP }, (_, i) => `83${String(i).padStart(8, '0')}`);
    await inParallel(warmUp, 5, async (m) => {
      const outcome = await apply(stack, m, '127.0.0.1');
      if (!outcome.ok)
        throw new Error(`warm-up applicant failed at ${outcome.step}: HTTP ${outcome.status} ${outcome.code}`);
    });
    for (const times of Object.values(took)) times.length = 0;

    say(`${APPLICANTS} applicants, ${CONCURRENCY} at a time`);
    const numbers = Array.from({ length: APPLICANTS }, (_, i) => mobile(i));
    const failures = new Map<string, number>();
    const started = Date.now();
    await inParallel(numbers, CONCURRENCY, async (m) => {
      const i = Number(m.slice(-4));
      const outcome = await apply(stack, m, `127.0.${Math.floor(i / 200) + 1}.${(i % 200) + 1}`);
      if (outcome.ok) return;
      const key = `${outcome.step}: HTTP ${outcome.status} ${outcome.code}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    });
    const seconds = (Date.now() - started) / 1000;
    for (const [key, n] of failures) say(`${n} applicant(s) failed at ${key}`);
    add(
      'load: failed applicants',
      exactly(
        [...failures.values()].reduce((a, b) => a + b, 0),
        'applicants',
        0,
      ),
    );
    add('load: elapsed', atMost(seconds, 's', 180));
    add('load: applicants/s', atLeast(APPLICANTS / seconds, 'applicants/s', 5));
    // Headroom to the functions' 10 s timeout, which the adapter enforces as Lambda does.
    for (const [name, times] of Object.entries(took)) {
      if (times.length > 0) add(`load: ${stepLabel[name as Step]} p99`, atMost(percentile(times, 0.99), 'ms', 8000));
    }

    say(`${RACE} simultaneous submits with one verification token`);
    const requested = await post(stack.apiUrl, '/api/otp/request', {
      mobile: sameTokenNumber,
      captchaToken: goodCaptcha,
    });
    const verified = await post(stack.apiUrl, '/api/otp/verify', {
      mobile: sameTokenNumber,
      code: stack.whatsApp.latestOtp(`91${sameTokenNumber}`),
    });
    if (requested.status !== 200 || verified.status !== 200)
      throw new Error(`the race's number was not verified: HTTP ${requested.status}, ${verified.status}`);
    const sameToken = await race(stack, Array<string>(RACE).fill(String(verified.body.verificationToken)));

    say(`${RACE} simultaneous submits with ${RACE} tokens for one number`);
    const key = localSecrets.verificationSigningKey;
    const minted = await Promise.all(
      Array.from(
        { length: RACE },
        async () => (await signVerification(key, `91${manyTokensNumber}`, new Date(), 1800, randomUUID())).token,
      ),
    );
    const manyTokens = await race(stack, minted);
    const submitsDone = Date.now();

    const stillQueued = await drainOutbound(stack.outbound, 150_000);
    const drainSeconds = (Date.now() - submitsDone) / 1000;
    await stack.applicationsStream.drain(60_000).catch((error: Error) => say(error.message));

    const applications = await scanApplications(db, stack.tableNames.applications);
    const welcomes = stack.whatsApp.messages().filter((m) => m.kind === 'welcome');
    const webhooks = stack.sink
      .deliveries()
      .map((d) => String((d.body as { application_id?: unknown }).application_id));
    const ours = new Set(numbers.map((m) => `91${m}`));
    const appPhones = new Set(applications.map((a) => a.phone));
    const appIds = new Set(applications.map((a) => a.id));
    const ourIds = new Set(applications.filter((a) => ours.has(a.phone)).map((a) => a.id));

    add(
      'load: applications',
      exactly(
        count(applications, (a) => ours.has(a.phone)),
        'items',
        APPLICANTS,
      ),
    );
    add(
      'load: welcome messages',
      exactly(
        count(welcomes, (w) => ours.has(w.to)),
        'messages',
        APPLICANTS,
      ),
    );
    add(
      'load: webhooks',
      exactly(
        count(webhooks, (id) => ourIds.has(id)),
        'deliveries',
        APPLICANTS,
      ),
    );
    // Over the whole run, races included: a second application for a number, a second
    // welcome to a number, a second webhook for an application.
    const duplicates = extra(applications.map((a) => a.phone)) + extra(welcomes.map((w) => w.to)) + extra(webhooks);
    add('load: duplicates', exactly(duplicates, 'items', 0));
    // A welcome or a webhook without its application, or an application without both.
    const welcomed = new Set(welcomes.map((w) => w.to));
    const forwarded = new Set(webhooks);
    const unmatched =
      count(welcomes, (w) => !appPhones.has(w.to)) +
      count(webhooks, (id) => !appIds.has(id)) +
      count(applications, (a) => !welcomed.has(a.phone)) +
      count(applications, (a) => !forwarded.has(a.id));
    add('load: unmatched messages', exactly(unmatched, 'items', 0));
    add('load: dead letters', exactly(stack.outbound.deadLetters().length, 'messages', 0));
    add('load: still queued', exactly(stillQueued, 'messages', 0));
    add('load: drain after last submit', atMost(drainSeconds, 's', 150));
    const givenUp = stack.applicationsStream.failures().reduce((n, f) => n + f.records.length, 0);
    add('load: stream records given up', exactly(givenUp, 'records', 0));

    const accepted = (statuses: number[]) => count(statuses, (s) => s === 201);
    add(
      'load: one number, 100 submits → applications',
      exactly(
        count(applications, (a) => a.phone === `91${sameTokenNumber}`),
        'items',
        1,
      ),
    );
    add('load: one number, 100 submits → 201', exactly(accepted(sameToken), 'responses', 1));
    add(
      'load: one number, 100 tokens → applications',
      exactly(
        count(applications, (a) => a.phone === `91${manyTokensNumber}`),
        'items',
        1,
      ),
    );
    add('load: one number, 100 tokens → 201', exactly(accepted(manyTokens), 'responses', 1));
    // The losers hear 409 (already registered) or 403 (token spent), never a server error.
    const raceErrors = count([...sameToken, ...manyTokens], (status) => status >= 500);
    add('load: race 5xx answers', exactly(raceErrors, 'responses', 0));
    say(`race answers: ${JSON.stringify(tally([...sameToken, ...manyTokens]))}`);
  } finally {
    client.destroy();
    await stack.stop();
  }
});

function tally(statuses: readonly number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}
