// Part 6 of `npm run bench` (issue 12): a rally. 3,000 students arrive at up to 50 a
// second (docs/CAPACITY.md's peak), from 5 viewer addresses (a campus network and four
// carrier NATs, as CloudFront reports them in CloudFront-Viewer-Address; every request
// reaches the API from one address, CloudFront's), on a stage that sends codes by
// WhatsApp with SMS as the fallback, whose WhatsApp account is new: the sandbox allows
// 250 unique recipients in 24 hours and 80 messages a second, as Meta does. Every student
// must get a code by one channel or the other, verify it and apply; then the outbound
// queue (welcome messages, webhooks) must drain with nothing lost, doubled or dead.
//
// Measured: the share of codes that went by SMS, the time from request to the code's
// acceptance by its channel (the answer to the request: sends are synchronous), the
// arrival rate reached, and the time the queue took to drain after the last submit.
// As in the load part, one process stands in for every Lambda container, DynamoDB and
// the stand-ins, on 2 cores: the rates are floors for this machine, not capacities. So
// a student arrives on the 50-a-second schedule or, when 100 students are already
// between request and submit, as soon as one of them is done: without the cap the
// process falls behind the schedule, sockets pile up past the listen backlog and the
// run measures the laptop's collapse, not the product (API Gateway and Lambda give each
// request a container of their own; their limits are the rally model's, in CAPACITY.md).
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rallyLimits } from '../../lib/rally-model';
import { localConfigSchema } from '../../local/config';
import { localDynamoClient } from '../../local/dynamodb';
import { type LocalStack, startLocalStack } from '../../local/stack';
import { goodCaptcha, submitBody } from '../../test/support/public-flow';
import { type Answer, count, drainOutbound, extra, percentile, postFrom, scanApplications } from '../applicants';
import { atLeast, atMost, exactly, report, runPart, say } from '../figures';

const STUDENTS = 3000;
const ARRIVALS_PER_SECOND = 50;
const TIER = 250;
const WHATSAPP_PER_SECOND = 80;
/** A campus network and four carrier NATs (documentation addresses, RFC 5737). */
const VIEWERS = ['203.0.113.10', '203.0.113.20', '198.51.100.30', '198.51.100.40', '192.0.2.50'];
/** What the SPA does with a busy answer: a few tries with jittered backoff. */
const BUSY_TRIES = 5;
/** Students between their request and their submit at once (the load part's pool size). */
const IN_FLIGHT = 100;

const mobile = (i: number) => `7${String(i).padStart(9, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A counting semaphore: take() waits while every slot is taken. */
class Slots {
  readonly #waiting: (() => void)[] = [];
  #free: number;
  constructor(size: number) {
    this.#free = size;
  }
  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

interface Student {
  readonly channel?: 'whatsapp' | 'sms';
  readonly codeMs?: number;
  readonly failure?: string;
}

async function attend(stack: LocalStack, i: number): Promise<Student> {
  const m = mobile(i);
  const viewer = { 'cloudfront-viewer-address': `${VIEWERS[i % VIEWERS.length]}:${40_000 + (i % 20_000)}` };
  const post = (path: string, body: unknown) => postFrom(stack.apiUrl, '127.0.0.1', path, body, viewer);
  const busy = (answer: Answer) => answer.status === 429 || answer.status === 503;

  const started = performance.now();
  let requested: Answer | undefined;
  for (let attempt = 1; attempt <= BUSY_TRIES; attempt++) {
    requested = await post('/api/otp/request', { mobile: m, captchaToken: goodCaptcha, language: i % 2 ? 'ta' : 'en' });
    if (!busy(requested)) break;
    await sleep(250 * 2 ** attempt * (0.5 + Math.random()));
  }
  if (requested?.status !== 200)
    return { failure: `request: HTTP ${requested?.status} ${requested?.body.error?.code ?? ''}` };
  const codeMs = performance.now() - started;
  const channel = (requested.body as { channel?: unknown }).channel === 'sms' ? 'sms' : 'whatsapp';
  // What the student reads on the phone, from the channel the page named.
  const code = channel === 'sms' ? stack.sms.latestOtp(`91${m}`) : stack.whatsApp.latestOtp(`91${m}`);
  if (!code) return { channel, failure: `no ${channel} code in the outbox` };
  const verified = await post('/api/otp/verify', { mobile: m, code });
  if (verified.status !== 200)
    return { channel, failure: `verify: HTTP ${verified.status} ${verified.body.error?.code ?? ''}` };
  const submitted = await post('/api/applications', submitBody(String(verified.body.verificationToken)));
  if (submitted.status !== 201)
    return { channel, failure: `submit: HTTP ${submitted.status} ${submitted.body.error?.code ?? ''}` };
  return { channel, codeMs };
}

runPart('rally', async (add) => {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const config = localConfigSchema.parse({
    LOCAL_PERSISTENCE: 'memory',
    LOCAL_WEB: 'false',
    LOCAL_QUEUE_VISIBILITY_MS: '5000',
    LOCAL_OTP_CHANNELS: 'whatsapp-then-sms',
    LOCAL_WHATSAPP_TIER: String(TIER),
  });
  const stack = await startLocalStack(config, (line) => {
    if (!/^[A-Z]+ \/\S* \d{3} \d+ms$/.test(line)) say(`stack: ${line}`);
  });
  const client = localDynamoClient(stack.dynamoDbEndpoint);
  try {
    const db = DynamoDBDocumentClient.from(client);
    // Meta's limits for a new business portfolio, enforced by the sandbox itself; the SMS
    // account's rate as docs/CAPACITY.md sizes it for this rally (the quota to ask AWS for).
    stack.whatsApp.setTier({ uniqueRecipientsPer24h: TIER, messagesPerSecond: WHATSAPP_PER_SECOND });
    const smsPerSecond = rallyLimits().smsPartsPerSecond;
    stack.sms.setRate(smsPerSecond);
    add('rally: SMS account rate (CAPACITY.md)', report(smsPerSecond, 'messages/s'));

    say(`${STUDENTS} students arriving at up to ${ARRIVALS_PER_SECOND}/s from ${VIEWERS.length} addresses`);
    const started = Date.now();
    const slots = new Slots(IN_FLIGHT);
    const results: Student[] = [];
    const attending: Promise<void>[] = [];
    for (let i = 0; i < STUDENTS; i++) {
      await sleep(started + (i * 1000) / ARRIVALS_PER_SECOND - Date.now());
      await slots.take();
      attending.push(
        attend(stack, i)
          .catch((error: unknown): Student => ({ failure: `threw: ${String(error)}` }))
          .then((student) => {
            results[i] = student;
            slots.give();
          }),
      );
    }
    await Promise.all(attending);
    const arrivalsSeconds = (Date.now() - started) / 1000;
    const submitsDone = Date.now();

    const failures = new Map<string, number>();
    for (const r of results) if (r.failure) failures.set(r.failure, (failures.get(r.failure) ?? 0) + 1);
    for (const [failure, n] of failures) say(`${n} student(s): ${failure}`);
    const bySms = count(results, (r) => r.channel === 'sms' && !r.failure);
    const codeTimes = results.flatMap((r) => (r.codeMs === undefined ? [] : [r.codeMs]));

    const stillQueued = await drainOutbound(stack.outbound, 300_000);
    const drainSeconds = (Date.now() - submitsDone) / 1000;

    const numbers = new Set(Array.from({ length: STUDENTS }, (_, i) => `91${mobile(i)}`));
    const applications = (await scanApplications(db, stack.tableNames.applications)).filter((a) =>
      numbers.has(a.phone),
    );
    const ids = new Set(applications.map((a) => a.id));
    const webhooks = stack.sink
      .deliveries()
      .map((d) => String((d.body as { application_id?: unknown }).application_id))
      .filter((id) => ids.has(id));
    const whatsAppCodes = stack.whatsApp.messages().filter((m) => m.kind === 'otp' && numbers.has(m.to));

    add('rally: students', report(STUDENTS, 'students'));
    add('rally: lost', exactly(STUDENTS - applications.length, 'students', 0));
    add(
      'rally: failed students',
      exactly(
        [...failures.values()].reduce((a, b) => a + b, 0),
        'students',
        0,
      ),
    );
    add('rally: duplicates', exactly(extra(applications.map((a) => a.phone)) + extra(webhooks), 'items', 0));
    add('rally: dead letters', exactly(stack.outbound.deadLetters().length, 'messages', 0));
    add('rally: still queued', exactly(stillQueued, 'messages', 0));
    add('rally: webhooks', exactly(webhooks.length, 'deliveries', applications.length));
    // The sandbox enforces Meta's cap: more unique WhatsApp recipients than the tier would be a bug in the count.
    add('rally: unique WhatsApp recipients', atMost(new Set(whatsAppCodes.map((m) => m.to)).size, 'recipients', TIER));
    add('rally: codes by SMS', report((100 * bySms) / STUDENTS, '%'));
    add('rally: request to code p50', atMost(percentile(codeTimes, 0.5), 'ms', 3000));
    add('rally: request to code p99', atMost(percentile(codeTimes, 0.99), 'ms', 10_000));
    add('rally: arrivals reached', atLeast(STUDENTS / arrivalsSeconds, 'students/s', 10));
    add('rally: queue drain after last submit', atMost(drainSeconds, 's', 300));
  } finally {
    client.destroy();
    await stack.stop();
  }
});
