// The rally model of docs/CAPACITY.md, as data, with its arithmetic as code. The prod
// stage (lib/stages.ts) takes its throttles, firewall limit, per-address limit, Lambda
// and queue concurrency and channel rates from `rallyLimits`, and test/infra asserts
// that the synthesized template carries exactly these numbers. Plain data: no CDK.

/** The crowd we size for: a rally ends, and everyone applies at once. */
export const rallyModel = {
  /** Students who apply after one rally. */
  students: 5000,
  /** ...within this many seconds of its end. */
  windowSeconds: 600,
  /** New visitors a second at the peak (the first minutes, everyone holding a phone). */
  peakArrivalsPerSecond: 50,
  /** The most phones behind one address: one campus Wi-Fi, or one carrier NAT. */
  phonesBehindOneAddress: 2000,
  /** What one visitor does, on average. */
  perVisitor: {
    /** One code request, plus resends and "Send by SMS" (one visitor in five). */
    codeRequests: 1.2,
    /** The page polls the code's delivery every 3 s until delivered or the SMS offer (20 s at worst). */
    statusPollIntervalSeconds: 3,
    statusPollSeconds: 20,
    /** One code check, plus a mistyped code now and then. */
    codeChecks: 1.2,
    submits: 1,
    /** WhatsApp sends a few statuses per message (sent, delivered, read): webhook calls. */
    webhookCallsPerWhatsAppMessage: 3,
  },
  /** Room above the modelled peak for arrivals bunching closer than the model says. */
  headroom: 1.5,
  /** API Gateway's burst (token bucket size) as a multiple of the steady rate. */
  burstFactor: 2,
  /** Typical duration of each function at the peak, in seconds (measured locally, rounded up). */
  durationSeconds: {
    /** reCAPTCHA siteverify, DynamoDB, then WhatsApp or SMS: two calls outside AWS. */
    'otp-request': 1.5,
    /** ...and when WhatsApp is slow: up to half the function's time, then the fallback. */
    'otp-request-worst': 3,
    'otp-status': 0.1,
    'otp-verify': 0.2,
    'applications-submit': 0.3,
    'whatsapp-webhook': 0.1,
    /** One WhatsApp or SMS send by the outbound consumer. */
    'outbound-send': 0.25,
  },
  /** Messages the outbound consumer gets in one batch (the SQS event source's batch size). */
  outboundBatchSize: 10,
  /** Meta: 80 messages a second per business phone number (Cloud API default throughput). */
  whatsappMessagesPerSecond: 80,
  /** Share of that rate the codes may use; the rest is the outbound queue's (welcome, decisions). */
  whatsappShareForCodes: 0.5,
  /** A new business portfolio's messaging tier: unique recipients in 24 hours. */
  whatsappTierUniquePer24h: 250,
  /** SMS parts per code: English is one GSM-7 part; a Tamil template in UCS-2 is two (70 characters a part). */
  smsPartsPerCode: { en: 1, ta: 2 },
  /** Share of visitors on the Tamil page. */
  tamilShare: 0.5,
} as const;

export type RallyModel = typeof rallyModel;

const roundUp = (value: number, step: number) => Math.ceil(value / step - 1e-9) * step;

export interface RouteLimit {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Every number the model sizes, derived step by step (docs/CAPACITY.md shows the same steps). */
export function rallyLimits(model: RallyModel = rallyModel) {
  const v = model.perVisitor;
  const arrivals = model.peakArrivalsPerSecond;

  // Requests a second at the peak, per route.
  const pollsPerVisitor = v.statusPollSeconds / v.statusPollIntervalSeconds;
  const whatsappMessagesAtPeak = Math.min(arrivals * v.codeRequests, model.whatsappMessagesPerSecond);
  const peak = {
    codeRequests: arrivals * v.codeRequests,
    statusPolls: arrivals * pollsPerVisitor,
    codeChecks: arrivals * v.codeChecks,
    submits: arrivals * v.submits,
    webhookCalls: whatsappMessagesAtPeak * v.webhookCallsPerWhatsAppMessage,
  };

  const limit = (rate: number): RouteLimit => {
    const rateLimit = roundUp(rate * model.headroom, 10);
    return { rateLimit, burstLimit: rateLimit * model.burstFactor };
  };
  const cardLimit: RouteLimit = { rateLimit: 50, burstLimit: 100 };
  const grievanceLimit: RouteLimit = { rateLimit: 10, burstLimit: 20 };
  const routes = {
    'POST /api/otp/request': limit(peak.codeRequests),
    'POST /api/otp/status': limit(peak.statusPolls),
    'POST /api/otp/verify': limit(peak.codeChecks),
    'POST /api/applications': limit(peak.submits),
    'POST /api/whatsapp/webhook': limit(peak.webhookCalls),
    // The member card's routes (issue 20) are no step of the rally: members opening their
    // card and stewards checking QRs at an event, a fixed 50 a second each.
    'POST /api/card': cardLimit,
    'POST /api/card/mine': cardLimit,
    'POST /api/card/status': cardLimit,
    // "My application" and its withdrawal (issue 21): after a code, as rare as "Get my card".
    'POST /api/me': cardLimit,
    'POST /api/me/withdraw': cardLimit,
    'POST /api/me/correct': cardLimit,
    // Grievances (issue 21): a complaint, after a code or with a contact number behind the
    // captcha, and its answer page; rarer still, and each one a stored text: 10 a second.
    'POST /api/me/grievances': grievanceLimit,
    'POST /api/grievances': grievanceLimit,
    'POST /api/grievances/answer': grievanceLimit,
  } as const satisfies Record<string, RouteLimit>;
  // HTTP APIs apply the stage's default throttle to each route on its own (not to their
  // sum): it must admit the busiest route; staff routes get it too.
  const defaultRate = roundUp(Math.max(...Object.values(routes).map((r) => r.rateLimit)), 100);
  const stageDefault: RouteLimit = { rateLimit: defaultRate, burstLimit: defaultRate * model.burstFactor };

  // One address: its share of the crowd may all ask within one 5-minute window (they stand
  // together), and within one hour for the app's own fixed-window limit.
  const requestsFromOneAddress = model.phonesBehindOneAddress * v.codeRequests;
  const wafOtpRequestsPer5Minutes = roundUp(requestsFromOneAddress * 1.25, 100);
  const otpMaxPerIpPerHour = roundUp(requestsFromOneAddress * 1.25, 100);

  // Lambda: concurrency = arrivals a second x seconds each (Little's law), at the throttled rate.
  const concurrency = {
    'otp-request': Math.ceil(routes['POST /api/otp/request'].rateLimit * model.durationSeconds['otp-request']),
    'otp-status': Math.ceil(routes['POST /api/otp/status'].rateLimit * model.durationSeconds['otp-status']),
    'otp-verify': Math.ceil(routes['POST /api/otp/verify'].rateLimit * model.durationSeconds['otp-verify']),
    'applications-submit': Math.ceil(
      routes['POST /api/applications'].rateLimit * model.durationSeconds['applications-submit'],
    ),
    'whatsapp-webhook': Math.ceil(
      routes['POST /api/whatsapp/webhook'].rateLimit * model.durationSeconds['whatsapp-webhook'],
    ),
  };
  // Reserved for the code request when providers hang (its worst duration): the other steps
  // keep the account's remaining concurrency, and a hanging provider cannot take it all.
  const otpRequestReserved = roundUp(
    routes['POST /api/otp/request'].rateLimit * model.durationSeconds['otp-request-worst'],
    10,
  );

  // The outbound queue: its share of WhatsApp's rate, sent one message after another by each
  // concurrent batch of the consumer.
  const outboundMessagesPerSecond = model.whatsappMessagesPerSecond * (1 - model.whatsappShareForCodes);
  const sendsPerSecondPerConsumer = 1 / model.durationSeconds['outbound-send'];
  const outboundMaxConcurrency = Math.max(2, Math.floor(outboundMessagesPerSecond / sendsPerSecondPerConsumer));

  // SMS: past the WhatsApp tier every code goes by SMS; message parts a second at the peak.
  const partsPerCode = model.smsPartsPerCode.en * (1 - model.tamilShare) + model.smsPartsPerCode.ta * model.tamilShare;
  const smsPartsPerSecond = roundUp(peak.codeRequests * partsPerCode * model.headroom, 10);

  // The WhatsApp tier: how much of the rally it carries.
  const whatsappShare = Math.min(1, model.whatsappTierUniquePer24h / model.students);

  return {
    peak,
    routes,
    stageDefault,
    wafOtpRequestsPer5Minutes,
    otpMaxPerIpPerHour,
    concurrency,
    concurrencyTotal: Object.values(concurrency).reduce((a, b) => a + b, 0) + outboundMaxConcurrency,
    otpRequestReserved,
    outboundMessagesPerSecond,
    outboundMaxConcurrency,
    smsPartsPerSecond,
    whatsappShare,
  };
}
