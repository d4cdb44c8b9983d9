import { randomUUID } from 'node:crypto';
import { type Db, isTransactionCanceled, QueryCommand, TransactWriteCommand, UpdateCommand } from '../lib/db';
import { ignoreConditionFailed, scanPages } from '../lib/dynamo';
import { applicationKey, applicationKeyPrefix } from './application-items';
import { CARD_SERIAL, cardIssue, MEMBER_SINCE } from './member-cards';
import { MEMBER_NUMBER, makeMemberSequence, type MemberSequence, memberNumberIssue } from './member-numbers';
import { REFERRAL_CODE, referralIssue, type ReviewTables } from './status-change';

// `npm run members:backfill` (ops/members-backfill.ts): members approved before the
// release that numbers them (issue 20) have no member number, card or referral code: an
// approval issues them only when the status changes. This gives each approved
// application what it lacks, in one transaction per application as an approval does
// (only while it is still approved and still lacks them), with an audit entry.

export type BackfillOutcome = 'issued' | 'complete' | 'changed';

/** What a first approval issues and this application has not got. */
const lacks = (item: Record<string, unknown>) =>
  [MEMBER_NUMBER, CARD_SERIAL, REFERRAL_CODE].some((attribute) => typeof item[attribute] !== 'string');

/** When the application was last approved, by its audit trail (the card's "member since"). */
async function approvedAt(db: Db, tables: ReviewTables, id: string): Promise<string | undefined> {
  const result = await db.send(
    new QueryCommand({
      TableName: tables.audit,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': applicationKey(id) },
      ScanIndexForward: false,
    }),
  );
  const approval = (result.Items ?? []).find((entry) => entry.action === 'status' && entry.to === 'approved');
  return typeof approval?.at === 'string' ? approval.at : undefined;
}

/**
 * Issues one approved application what it lacks. `changed` when it was changed meanwhile
 * (no longer approved, or numbered by an approval): nothing written, a drawn number listed
 * as unused, and the next run looks again.
 */
export async function backfillOne(
  db: Db,
  tables: ReviewTables,
  item: Record<string, unknown>,
  now: Date,
  members: MemberSequence = makeMemberSequence(db, tables.applications, tables.audit),
): Promise<BackfillOutcome> {
  const id = String(item.id);
  if (item.application_status !== 'approved' || !lacks(item)) return 'complete';
  // The card says since when they are a member: their approval, not this command's run.
  const since = (await approvedAt(db, tables, id)) ?? String(item.submitted_at);
  await ignoreConditionFailed(
    db.send(
      new UpdateCommand({
        TableName: tables.applications,
        Key: { pk: applicationKey(id) },
        UpdateExpression: `SET ${MEMBER_SINCE} = :since`,
        ConditionExpression: `application_status = :approved AND attribute_not_exists(${MEMBER_SINCE})`,
        ExpressionAttributeValues: { ':since': since, ':approved': 'approved' },
      }),
    ),
  );
  const drawn = typeof item[MEMBER_NUMBER] === 'string' ? undefined : await members.draw();
  const issues = [
    referralIssue(tables, id, item, 'approved', now),
    drawn === undefined ? undefined : memberNumberIssue(tables.applications, id, drawn, now),
    cardIssue(tables.applications, id, item, 'approved', now),
  ].filter((part) => part !== undefined);
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tables.applications,
              Key: { pk: applicationKey(id) },
              UpdateExpression: `SET updated_at = :now${issues.map((i) => i.set).join('')}`,
              ConditionExpression: `application_status = :approved${issues.map((i) => i.condition).join('')}`,
              ExpressionAttributeValues: {
                ...(Object.assign({}, ...issues.map((i) => i.values)) as Record<string, string>),
                ':approved': 'approved',
                ':now': now.toISOString(),
              },
            },
          },
          {
            Put: {
              TableName: tables.audit,
              Item: {
                pk: applicationKey(id),
                sk: `${now.toISOString()}#${randomUUID()}`,
                action: 'membership-backfill',
                at: now.toISOString(),
                by: 'members:backfill',
                ...(drawn !== undefined && { sequence: drawn }),
              },
            },
          },
          ...issues.map((i) => i.put),
        ],
      }),
    );
    return 'issued';
  } catch (error) {
    if (!isTransactionCanceled(error)) throw error;
    if (drawn !== undefined) await members.unused(drawn, id, now);
    return 'changed';
  }
}

export interface BackfillResult {
  readonly issued: number;
  readonly changed: number;
}

/**
 * Every approved application lacking a number, card or code, oldest application first
 * (their numbers then follow the order they applied in), one at a time: a run is a
 * one-off after a deploy, and one at a time keeps the numbers in that order.
 */
export async function backfillMembership(
  db: Db,
  tables: ReviewTables,
  now = () => new Date(),
): Promise<BackfillResult> {
  const waiting: Record<string, unknown>[] = [];
  for await (const page of scanPages(db, {
    TableName: tables.applications,
    FilterExpression: 'begins_with(pk, :app) AND application_status = :approved',
    ExpressionAttributeValues: { ':app': applicationKeyPrefix, ':approved': 'approved' },
    ConsistentRead: true,
  })) {
    waiting.push(...page.filter(lacks));
  }
  waiting.sort((a, b) => String(a.submitted_at).localeCompare(String(b.submitted_at)));
  const members = makeMemberSequence(db, tables.applications, tables.audit);
  let issued = 0;
  let changed = 0;
  for (const item of waiting) {
    const outcome = await backfillOne(db, tables, item, now(), members);
    if (outcome === 'issued') issued++;
    if (outcome === 'changed') changed++;
  }
  return { issued, changed };
}
