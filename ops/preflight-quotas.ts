import { GetAccountSettingsCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  DescribeAccountAttributesCommand,
  DescribeSenderIdsCommand,
  DescribeSpendLimitsCommand,
  type PinpointSMSVoiceV2Client,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { routes } from '../lib/api-routes';
import { isPlaceholder } from '../contracts/config-findings';
import { rallyModel } from '../lib/rally-model';
import { routeKey, type StageConfig } from '../lib/stages';
import { read } from './preflight-aws';
import type { PreflightReport } from './preflight-report';

// The account's side, which holds before a first deploy too: Lambda concurrency against
// what the stage's throttles can bring, and SMS (sender id, sandbox, spend limit) against
// the rally model (docs/CAPACITY.md).

/** Typical seconds of each function at the peak (the rally model's measurements), by handler. */
const durations: Record<string, number> = rallyModel.durationSeconds;

/**
 * What the stage needs of the account's Lambda concurrency (docs/CAPACITY.md, "Lambda
 * concurrency"): each throttled public route at its rate × its function's duration (Little's
 * law; for prod this is the rally model's table), the outbound consumer at its maximum
 * concurrency, plus every reservation and the 100 Lambda keeps unreserved beside one.
 */
export function concurrencyNeeds(config: Pick<StageConfig, 'api' | 'outbound'>) {
  const reserved = Object.values(config.api.reservedConcurrency).reduce((a, b) => a + b, 0);
  const byKey = new Map(routes.map((r) => [routeKey(r), r.handler]));
  let unreservedPeak = config.outbound.maxConcurrency;
  for (const [key, throttle] of Object.entries(config.api.routeThrottles)) {
    const handler = byKey.get(key);
    const duration = handler === undefined ? undefined : durations[handler];
    if (handler === undefined || duration === undefined || handler in config.api.reservedConcurrency) continue;
    unreservedPeak += Math.ceil(throttle.rateLimit * duration - 1e-9);
  }
  /** Below this, Lambda refuses the reservations and the deploy fails. */
  const floor = reserved > 0 ? reserved + 100 : 0;
  return { reserved, unreservedPeak, floor, need: floor + unreservedPeak };
}

export async function checkLambdaConcurrency(
  report: PreflightReport,
  client: LambdaClient,
  config: StageConfig,
): Promise<void> {
  const settings = await read(
    report,
    { action: 'lambda:GetAccountSettings', region: config.region, what: "The account's Lambda concurrency" },
    () => client.send(new GetAccountSettingsCommand({})),
  );
  const limit = settings?.AccountLimit?.ConcurrentExecutions;
  if (limit === undefined) return;
  const { reserved, unreservedPeak, floor, need } = concurrencyNeeds(config);
  const fix = `Ask for more: aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value ${Math.max(1000, need)} --region ${config.region} (granted in hours to days; docs/CAPACITY.md).`;
  if (limit < floor) {
    report.add({
      id: 'quota.lambdaConcurrency',
      severity: 'blocking',
      problem: `The account's Lambda concurrency in ${config.region} is ${limit}; ${config.stage} reserves ${reserved} and Lambda keeps 100 unreserved beside it: at least ${floor}.`,
      why: 'Lambda refuses the reservation, so the deploy fails (new accounts often start at 10).',
      fix,
    });
  } else if (limit < need) {
    report.add({
      id: 'quota.lambdaConcurrency',
      severity: 'warning',
      problem: `The account's Lambda concurrency in ${config.region} is ${limit}; ${config.stage} needs ${need} at its throttled peak (${floor > 0 ? `${reserved} reserved + 100 unreserved + ` : ''}${unreservedPeak} for the other functions).`,
      why: 'At the peak, requests past the quota are throttled: visitors wait and retry, and the throttles alarm fires.',
      fix,
    });
  } else {
    report.pass(`Lambda concurrency ${limit} in ${config.region} (the stage needs ${need})`);
  }
}

/**
 * End User Messaging SMS's price per message part to India, in USD: *assumed*, check
 * https://aws.amazon.com/end-user-messaging/pricing/ (it changes with carriers' fees).
 */
export const ASSUMED_SMS_PRICE_PER_PART_USD = 0.003;

/** One rally's codes by SMS (docs/CAPACITY.md, "Before a rally": 5,000 codes × 1.5 parts) and their price. */
export function rallySmsSpend(model = rallyModel) {
  const partsPerCode = model.smsPartsPerCode.en * (1 - model.tamilShare) + model.smsPartsPerCode.ta * model.tamilShare;
  const parts = Math.ceil(model.students * partsPerCode);
  return { parts, usd: Math.ceil(parts * ASSUMED_SMS_PRICE_PER_PART_USD) };
}

/** lib/stages.ts sizes prod, and only prod, by the rally model. */
const sizedForRally = (config: StageConfig) => config.stage === 'prod';

export async function checkSms(
  report: PreflightReport,
  client: PinpointSMSVoiceV2Client,
  config: StageConfig,
): Promise<void> {
  const sms = config.messaging.sms;
  if (!sms) return;
  const region = config.region;
  // As settingsFindings grades the DLT values: SMS is the only way a code arrives, or the fallback.
  const severity = config.messaging.otpChannels === 'sms' ? 'blocking' : 'warning';
  const role =
    config.messaging.otpChannels === 'sms'
      ? 'no code arrives at all'
      : 'the SMS fallback fails: past the WhatsApp tier, or when WhatsApp refuses, no code arrives';

  if (!isPlaceholder(sms.originationIdentity)) {
    const senderIds = await read(
      report,
      { action: 'sms-voice:DescribeSenderIds', region, what: 'The SMS sender id' },
      async () => {
        try {
          const result = await client.send(
            new DescribeSenderIdsCommand({
              SenderIds: [{ SenderId: sms.originationIdentity, IsoCountryCode: sms.isoCountryCode }],
            }),
          );
          return result.SenderIds ?? [];
        } catch (error) {
          if ((error as { name?: string }).name === 'ResourceNotFoundException') return [];
          throw error;
        }
      },
    );
    const senderId = senderIds?.[0];
    if (senderIds && !senderId) {
      report.add({
        id: 'sms.senderId',
        severity,
        problem: `The sender id ${sms.originationIdentity} (${sms.isoCountryCode}) is not in End User Messaging SMS in ${region}.`,
        why: `Every SendTextMessage from it is refused, so ${role}.`,
        fix: `Request it: End User Messaging SMS console (${region}) → Configurations → Sender IDs → Request sender ID, country ${sms.isoCountryCode}, transactional, with the DLT entity id (docs/MESSAGING.md, "SMS under DLT").`,
      });
    } else if (senderId && !(senderId.MessageTypes ?? []).includes('TRANSACTIONAL')) {
      report.add({
        id: 'sms.senderId',
        severity,
        problem: `The sender id ${sms.originationIdentity} is not registered for transactional messages (${(senderId.MessageTypes ?? []).join(', ') || 'none'}).`,
        why: `Codes are sent as TRANSACTIONAL and refused, so ${role}.`,
        fix: `Request the sender id for transactional messages in the End User Messaging SMS console (${region}).`,
      });
    } else if (senderId) {
      report.pass(
        `SMS sender id ${sms.originationIdentity} (${sms.isoCountryCode}) registered for transactional messages`,
      );
    }
  }

  const attributes = await read(
    report,
    { action: 'sms-voice:DescribeAccountAttributes', region, what: "The SMS account's tier (sandbox or production)" },
    () => client.send(new DescribeAccountAttributesCommand({})),
  );
  const tier = attributes?.AccountAttributes?.find((a) => a.Name === 'ACCOUNT_TIER')?.Value;
  if (tier === 'SANDBOX') {
    report.add({
      id: 'sms.sandbox',
      severity,
      problem: `The account's SMS is in the sandbox in ${region}.`,
      why: `The sandbox sends only to verified destination numbers, so for visitors ${role}.`,
      fix: `Request production access: End User Messaging SMS console (${region}) → Account settings → Request production access (a Support case; answered in about a day).`,
    });
  } else if (tier) {
    report.pass(`SMS account tier ${tier} in ${region}`);
  }

  const limits = await read(
    report,
    { action: 'sms-voice:DescribeSpendLimits', region, what: 'The SMS spend limit' },
    () => client.send(new DescribeSpendLimitsCommand({})),
  );
  const text = limits?.SpendLimits?.find((l) => l.Name === 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT');
  if (text?.EnforcedLimit === undefined) return;
  const rally = rallySmsSpend();
  const enforced = text.EnforcedLimit;
  const covers = Math.floor(enforced / ASSUMED_SMS_PRICE_PER_PART_USD);
  if (enforced >= rally.usd) {
    report.pass(`SMS spend limit ${enforced} USD a month (a rally's ${rally.parts} parts cost about ${rally.usd} USD)`);
    return;
  }
  const fix =
    (text.MaxLimit ?? 0) >= rally.usd
      ? `Your quota allows ${text.MaxLimit} USD: aws pinpoint-sms-voice-v2 set-text-message-spend-limit-override --monthly-limit ${rally.usd} --region ${region}.`
      : `Ask AWS Support for a higher monthly SMS spend limit in ${region} (Support Center → Create case → Service limit increase → End User Messaging SMS; at least ${rally.usd} USD for each rally a month), then aws pinpoint-sms-voice-v2 set-text-message-spend-limit-override --monthly-limit ${rally.usd} --region ${region}.`;
  report.add({
    id: 'quota.smsSpendLimit',
    severity: sizedForRally(config) ? 'warning' : 'note',
    problem: `The SMS spend limit in ${region} is ${enforced} USD a month: about ${covers} message parts at an assumed ${ASSUMED_SMS_PRICE_PER_PART_USD} USD a part; one rally sends about ${rally.parts} (docs/CAPACITY.md).`,
    why: sizedForRally(config)
      ? 'Once the month reaches the limit, End User Messaging SMS stops sending within minutes: every later code by SMS is refused until the month ends (new accounts start at 1 USD).'
      : `Enough to test; ${config.stage} is not sized for a rally.`,
    fix,
  });
}
