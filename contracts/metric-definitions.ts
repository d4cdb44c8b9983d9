// The product's embedded metrics as the dashboard and alarms read them. They are
// published by lambdas/lib/metrics.ts (Powertools); test/infra/operations.test.ts holds
// these names and dimensions to what that module really writes. Plain data, in contracts/
// because lambdas/ may not import the CDK app's lib/ (contracts/table-definitions.ts says why).

export const METRICS_NAMESPACE = 'Membership';

export const metricNames = [
  'OtpSent',
  'OtpSendFailed',
  'OtpVerified',
  'OtpRejected',
  'CaptchaRejected',
  'RateLimited',
  'ApplicationSubmitted',
  'OutboundDelivered',
  'OutboundFailed',
  /** An outbound message failed and comes back after a backoff (kind dimension). */
  'OutboundRetried',
  /** An outbound message failed its last receive: the queue moves it to the dead-letter queue (kind dimension). */
  'OutboundDeadLettered',
  /** A provider accepted a message (channel dimension: whatsapp, sms). Every purpose: OTP, welcome, decision, withdrawal. */
  'MessageAccepted',
  /** A provider reported a message delivered (channel dimension). The delivery-rate alarm divides these by MessageAccepted. */
  'MessageDelivered',
  /** A provider reported a message failed (dimension `channel_code`, e.g. `whatsapp:131026`, `sms:TEXT_BLOCKED`). */
  'MessageFailed',
  /** WhatsApp refused an OTP (or the tier was full) and the code went by SMS (reason dimension). */
  'OtpFellBackToSms',
  /** Unique WhatsApp recipients in the last 24 hours, against the stage's messaging tier (a gauge). */
  'WhatsAppUniqueRecipients24h',
  /** A decision notice went to an applicant (channel dimension). */
  'DecisionNoticeSent',
  /** An outbound send met a provider's rate limit and was put back without spending a retry (kind dimension). */
  'OutboundThrottled',
  /** An outbound message that no retry could deliver was dropped on purpose (kind dimension: welcome-tier-full, welcome-undeliverable). */
  'OutboundSkipped',
  /**
   * Open grievances due within 7 days or overdue, counted by the daily retention job (a
   * gauge, issue 21): the `grievances-due` alarm fires at 1.
   */
  'GrievancesDueSoon',
] as const;
export type MetricName = (typeof metricNames)[number];

/**
 * The dimensions of a stage's totals, exactly as published: Powertools adds the service
 * name (`service`) beside the stage. A CloudWatch metric is its name plus its whole
 * dimension set, so a query that leaves `service` out finds nothing.
 */
export function stageMetricDimensions(stage: string): { service: string; stage: string } {
  return { service: 'membership', stage };
}
