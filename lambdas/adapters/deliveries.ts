import { type Db, GetCommand, isConditionFailed, UpdateCommand } from '../lib/db';
import * as v from 'valibot';
import { type DeliveryStatus, deliveryStatuses, type OtpChannel, otpChannels } from '../../rules/api';

// What each provider said about each message it accepted (docs/MESSAGING.md, "Delivery
// status"): one item per message, `MSG#<channel>#<provider message id>`, never the number.
// Providers report out of order and more than once, so every write is a conditional
// update: the status only moves up the rank, and each status's time is kept once. A
// status callback may beat the send's own `accepted` write: either may create the item.

export interface MessageRef {
  readonly channel: OtpChannel;
  readonly messageId: string;
}

const deliveryPurposes = ['otp', 'welcome', 'decision', 'withdrawn', 'grievance'] as const;
/** What the message was: a code, the welcome, a decision notice, a withdrawal's confirmation or a grievance's answer (issue 21). */
type DeliveryPurpose = (typeof deliveryPurposes)[number];

export interface DeliveryRecord {
  readonly channel: OtpChannel;
  readonly messageId: string;
  readonly purpose?: DeliveryPurpose;
  readonly status: DeliveryStatus;
  readonly errorCode?: string;
  readonly acceptedAt?: string;
  readonly sentAt?: string;
  readonly deliveredAt?: string;
  readonly readAt?: string;
  readonly failedAt?: string;
  readonly applicationId?: string;
  readonly decision?: 'approved' | 'rejected';
}

/** accepted < sent < failed < delivered < read: a delivery reported after a failure wins. */
export const statusRank: Record<DeliveryStatus, number> = { accepted: 0, sent: 1, failed: 2, delivered: 3, read: 4 };

/**
 * What one status report changed:
 * - `advanced`: the status moved up to this one (the first report of it);
 * - `late`: a lower or equal status reported for the first time; only its time was kept;
 * - `duplicate`: this status was already known; nothing changed.
 * A message is counted once per status it reaches: on anything but `duplicate`.
 */
export type StatusChange = 'advanced' | 'late' | 'duplicate';

export interface DeliveryStore {
  recordAccepted(
    ref: MessageRef,
    meta: { purpose: DeliveryPurpose; applicationId?: string; decision?: 'approved' | 'rejected' },
    now: Date,
  ): Promise<void>;
  recordStatus(
    ref: MessageRef,
    status: Exclude<DeliveryStatus, 'accepted'>,
    at: Date,
    errorCode?: string,
  ): Promise<StatusChange>;
  get(ref: MessageRef): Promise<DeliveryRecord | undefined>;
}

export const deliveryKey = (ref: MessageRef) => `MSG#${ref.channel}#${ref.messageId}`;

const DELIVERY_TTL_SECONDS = 30 * 86_400;

const timeAttribute = (status: DeliveryStatus) => `${status}_at` as const;

const itemSchema = v.object({
  pk: v.pipe(v.string(), v.startsWith('MSG#')),
  channel: v.picklist(otpChannels),
  purpose: v.optional(v.picklist(deliveryPurposes)),
  status: v.picklist(deliveryStatuses),
  status_rank: v.pipe(v.number(), v.safeInteger()),
  error_code: v.optional(v.string()),
  accepted_at: v.optional(v.string()),
  sent_at: v.optional(v.string()),
  delivered_at: v.optional(v.string()),
  read_at: v.optional(v.string()),
  failed_at: v.optional(v.string()),
  application_id: v.optional(v.string()),
  decision: v.optional(v.picklist(['approved', 'rejected'])),
  ttl: v.optional(v.number()),
});

function toRecord(ref: MessageRef, item: v.InferOutput<typeof itemSchema>): DeliveryRecord {
  return {
    channel: item.channel,
    messageId: ref.messageId,
    status: item.status,
    ...(item.purpose && { purpose: item.purpose }),
    ...(item.error_code !== undefined && { errorCode: item.error_code }),
    ...(item.accepted_at && { acceptedAt: item.accepted_at }),
    ...(item.sent_at && { sentAt: item.sent_at }),
    ...(item.delivered_at && { deliveredAt: item.delivered_at }),
    ...(item.read_at && { readAt: item.read_at }),
    ...(item.failed_at && { failedAt: item.failed_at }),
    ...(item.application_id && { applicationId: item.application_id }),
    ...(item.decision && { decision: item.decision }),
  };
}

const ttlFrom = (now: Date) => Math.floor(now.getTime() / 1000) + DELIVERY_TTL_SECONDS;

/**
 * `clock` dates the item's expiry and `updated_at` when a provider's report creates or
 * changes it (a provider's own timestamp may be anything).
 */
export function makeDeliveryStore(
  db: Db,
  tableName: string,
  clock: () => Date = () => new Date(),
): DeliveryStore {
  return {
    async recordAccepted(ref, meta, now) {
      // Every attribute a callback may already have set is kept (if_not_exists): the
      // send's own write never lowers a status reported before it.
      const values: Record<string, unknown> = {
        ':channel': ref.channel,
        ':purpose': meta.purpose,
        ':accepted': 'accepted',
        ':zero': statusRank.accepted,
        ':now': now.toISOString(),
        ':ttl': ttlFrom(now),
      };
      const sets = [
        'channel = :channel',
        'purpose = :purpose',
        '#status = if_not_exists(#status, :accepted)',
        'status_rank = if_not_exists(status_rank, :zero)',
        'accepted_at = if_not_exists(accepted_at, :now)',
        'updated_at = :now',
        '#ttl = if_not_exists(#ttl, :ttl)',
      ];
      if (meta.applicationId !== undefined) {
        sets.push('application_id = :application');
        values[':application'] = meta.applicationId;
      }
      if (meta.decision !== undefined) {
        sets.push('decision = :decision');
        values[':decision'] = meta.decision;
      }
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: deliveryKey(ref) },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
          ExpressionAttributeValues: values,
        }),
      );
    },

    async recordStatus(ref, status, at, errorCode) {
      const key = { pk: deliveryKey(ref) };
      const time = timeAttribute(status);
      const withCode = status === 'failed' && errorCode !== undefined;
      const now = clock();
      try {
        // Up the rank only. Moving up to a status means it was never seen before, so its
        // time is free; if_not_exists all the same, so that no path can rewrite a time.
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression:
              'SET #status = :status, status_rank = :rank, #time = if_not_exists(#time, :at), channel = :channel, ' +
              `updated_at = :now, #ttl = if_not_exists(#ttl, :ttl)${withCode ? ', error_code = :code' : ''}`,
            ConditionExpression: 'attribute_not_exists(status_rank) OR status_rank < :rank',
            ExpressionAttributeNames: { '#status': 'status', '#time': time, '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':status': status,
              ':rank': statusRank[status],
              ':at': at.toISOString(),
              ':channel': ref.channel,
              ':now': now.toISOString(),
              ':ttl': ttlFrom(now),
              ...(withCode && { ':code': errorCode }),
            },
          }),
        );
        return 'advanced';
      } catch (error) {
        if (!(isConditionFailed(error))) throw error;
      }
      try {
        // Lower or equal: the status stays; only this status's time (and a failure's
        // code) is kept, the first time it is reported.
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: `SET #time = :at${withCode ? ', error_code = if_not_exists(error_code, :code)' : ''}`,
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#time)',
            ExpressionAttributeNames: { '#time': time },
            ExpressionAttributeValues: { ':at': at.toISOString(), ...(withCode && { ':code': errorCode }) },
          }),
        );
        return 'late';
      } catch (error) {
        if (!(isConditionFailed(error))) throw error;
        return 'duplicate';
      }
    },

    async get(ref) {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { pk: deliveryKey(ref) } }));
      if (!result.Item) return undefined;
      const item = v.parse(itemSchema, result.Item);
      // DynamoDB may take a while to remove an expired item.
      if (item.ttl !== undefined && item.ttl * 1000 <= clock().getTime()) return undefined;
      return toRecord(ref, item);
    },
  };
}
