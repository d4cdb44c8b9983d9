import { randomUUID } from 'node:crypto';
import { type Db, DeleteCommand, GetCommand, isConditionFailed, PutCommand, UpdateCommand } from '../lib/db';
import * as v from 'valibot';
import type { OtpChannel } from '../../rules/api';
import type { DecisionNotice } from '../../rules/staff-api';
import type { DeliveryStore } from './deliveries';
import { type Decision, decisions } from './outbound-queue';

// The claim of a decision notice (docs/MESSAGING.md, "Decision notices"): one item per
// application and decision, `NOTICE#<application id>#<decision>`, in the deliveries
// table. The consumer claims it with a conditional write before it sends, so each
// application hears each decision at most once, whatever the retries and however often
// it is approved again. A claim is first a lease (a token and an expiry, no message id);
// the send's message id turns it into a sent notice; a failed send deletes it so that
// the retry may send. A lease whose holder died mid-send (no message id, expired) may be
// taken over. A sent claim never expires: it holds no personal data (the application
// id, the channel, the provider's message id and the time), and "at most once" is for good.

const noticeKey = (applicationId: string, decision: Decision) => `NOTICE#${applicationId}#${decision}`;

export interface SentNotice {
  readonly decision: Decision;
  readonly channel: OtpChannel;
  readonly messageId: string;
  readonly sentAt: string;
}

type ClaimResult =
  | { readonly kind: 'claimed'; readonly token: string }
  /** The notice went already. */
  | { readonly kind: 'sent'; readonly notice: SentNotice }
  /** Another consumer holds the lease (it is sending now); try again after `retryAfterSeconds`. */
  | { readonly kind: 'in-progress'; readonly retryAfterSeconds: number };

export interface DecisionNoticeStore {
  claim(applicationId: string, decision: Decision, now: Date, leaseSeconds: number): Promise<ClaimResult>;
  /** The claim becomes a sent notice; false when the lease was lost meanwhile (taken over after expiry). */
  complete(
    applicationId: string,
    decision: Decision,
    token: string,
    sent: Omit<SentNotice, 'decision'>,
  ): Promise<boolean>;
  /** Gives the claim up after a failed send, so that a retry may send. */
  release(applicationId: string, decision: Decision, token: string): Promise<void>;
  /** The notices that went to an application. */
  sentFor(applicationId: string): Promise<SentNotice[]>;
}

const claimSchema = v.object({
  pk: v.string(),
  decision: v.picklist(decisions),
  lease_until: v.optional(v.number()),
  channel: v.optional(v.picklist(['whatsapp', 'sms'])),
  message_id: v.optional(v.string()),
  sent_at: v.optional(v.string()),
});

function sentNotice(item: Record<string, unknown> | undefined): SentNotice | undefined {
  const parsed = v.safeParse(claimSchema, item);
  if (!parsed.success) return undefined;
  const { decision, channel, message_id: messageId, sent_at: sentAt } = parsed.output;
  return channel && messageId && sentAt ? { decision, channel, messageId, sentAt } : undefined;
}

const isConditionFailure = (error: unknown) =>
  isConditionFailed(error) || (error as Error).name === 'ConditionalCheckFailedException';

export function makeDecisionNoticeStore(db: Db, tableName: string): DecisionNoticeStore {
  const get = async (applicationId: string, decision: Decision) =>
    (
      await db.send(
        new GetCommand({ TableName: tableName, Key: { pk: noticeKey(applicationId, decision) }, ConsistentRead: true }),
      )
    ).Item;

  return {
    async claim(applicationId, decision, now, leaseSeconds) {
      const token = randomUUID();
      const nowSeconds = Math.floor(now.getTime() / 1000);
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              pk: noticeKey(applicationId, decision),
              application_id: applicationId,
              decision,
              claim_token: token,
              claimed_at: now.toISOString(),
              lease_until: nowSeconds + leaseSeconds,
            },
            ConditionExpression:
              'attribute_not_exists(pk) OR (attribute_not_exists(message_id) AND lease_until < :now)',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        );
        return { kind: 'claimed', token };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const item = await get(applicationId, decision);
      const notice = sentNotice(item);
      if (notice) return { kind: 'sent', notice };
      const leaseUntil = typeof item?.lease_until === 'number' ? item.lease_until : nowSeconds;
      return { kind: 'in-progress', retryAfterSeconds: Math.max(1, leaseUntil - nowSeconds + 1) };
    },

    async complete(applicationId, decision, token, sent) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: noticeKey(applicationId, decision) },
            UpdateExpression: 'SET channel = :channel, message_id = :id, sent_at = :at REMOVE lease_until',
            ConditionExpression: 'claim_token = :token',
            ExpressionAttributeValues: {
              ':channel': sent.channel,
              ':id': sent.messageId,
              ':at': sent.sentAt,
              ':token': token,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async release(applicationId, decision, token) {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { pk: noticeKey(applicationId, decision) },
            ConditionExpression: 'claim_token = :token AND attribute_not_exists(message_id)',
            ExpressionAttributeValues: { ':token': token },
          }),
        );
      } catch (error) {
        // Not ours any more: another consumer took the expired lease over.
        if (!isConditionFailure(error)) throw error;
      }
    },

    async sentFor(applicationId) {
      const items = await Promise.all(decisions.map((d) => get(applicationId, d)));
      return items.map(sentNotice).filter((n): n is SentNotice => n !== undefined);
    },
  };
}

/** The notices of an application as the details row shows them: each with its delivery status. */
export async function noticesWithStatus(
  notices: Pick<DecisionNoticeStore, 'sentFor'>,
  deliveries: Pick<DeliveryStore, 'get'>,
  applicationId: string,
): Promise<DecisionNotice[]> {
  const sent = await notices.sentFor(applicationId);
  const rows = await Promise.all(
    sent.map(async (n): Promise<DecisionNotice> => {
      const record = await deliveries.get({ channel: n.channel, messageId: n.messageId });
      return {
        decision: n.decision,
        channel: n.channel,
        sentAt: n.sentAt,
        // No record yet: the send was accepted and nothing was reported since.
        status: record?.status ?? 'accepted',
        ...(record?.errorCode !== undefined && record.status === 'failed' && { errorCode: record.errorCode }),
      };
    }),
  );
  return rows.sort((a, b) => b.sentAt.localeCompare(a.sentAt));
}
