import { type Db, PutCommand, UpdateCommand } from '../lib/db';
import { formatMemberNumber } from '../../rules/member-number';

// Member numbers (issue 20), in the applications table beside the applications:
//
//   SEQ#member        the stage's counter: `next`, the last sequence drawn (ADD, atomic)
//   MEMBER#<number>   the number's guard: the one application that holds it
//
// and in the audit table, `MEMBER_NUMBERS` / `unused#<sequence>#<application id>`: a
// sequence drawn for an approval that did not happen (an item each, so that the counter
// stays one small item whose ADD costs 1 WRU however many there are).
//
// A first approval draws the next sequence before its transaction and keeps it across
// the transaction's retries; the transaction sets `member_number` on the application
// (only if it has none) and puts the guard (only if new). So a number is never given
// twice, never changes, and numbers increase in the order they were drawn. A drawn
// number is used by its approval, or listed in `unused` when that approval ended
// without it (someone else approved the application first, or it was gone): every
// sequence up to `next` is a guard's or listed unused, except one whose request failed
// with an error between drawing and writing (the function stopped, DynamoDB refused),
// which is then missing from both.

/** The application's attribute holding its member number. */
export const MEMBER_NUMBER = 'member_number';
export const memberSequenceKey = 'SEQ#member';
export const memberGuardKey = (memberNumber: string) => `MEMBER#${memberNumber}`;

export interface MemberSequence {
  /** The next sequence of the stage (1, 2, ...): atomic, never the same twice. */
  draw(): Promise<number>;
  /** Records a drawn sequence that the approval of `applicationId` did not use. */
  unused(sequence: number, applicationId: string, now: Date): Promise<void>;
}

/** The audit table's partition of the sequences drawn and not used. */
export const UNUSED_MEMBER_NUMBERS = 'MEMBER_NUMBERS';
export const unusedSortKey = (sequence: number, applicationId: string) =>
  `unused#${String(sequence).padStart(12, '0')}#${applicationId}`;

export function makeMemberSequence(db: Db, table: string, auditTable: string): MemberSequence {
  return {
    async draw() {
      const result = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: memberSequenceKey },
          UpdateExpression: 'ADD #next :one',
          ExpressionAttributeNames: { '#next': 'next' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const next = Number(result.Attributes?.next);
      if (!Number.isSafeInteger(next) || next < 1) throw new Error('The member sequence answered no number');
      return next;
    },
    async unused(sequence, applicationId, now) {
      await db.send(
        new PutCommand({
          TableName: auditTable,
          Item: {
            pk: UNUSED_MEMBER_NUMBERS,
            sk: unusedSortKey(sequence, applicationId),
            action: 'member-number-unused',
            sequence,
            application_id: applicationId,
            at: now.toISOString(),
          },
        }),
      );
    },
  };
}

/**
 * The parts of an approval's transaction that give the application the number of
 * `sequence`: set only if it has none, and its guard put only if the number is new.
 */
export function memberNumberIssue(table: string, id: string, sequence: number, now: Date) {
  const memberNumber = formatMemberNumber(sequence, now);
  return {
    set: `, ${MEMBER_NUMBER} = :mn`,
    condition: ` AND attribute_not_exists(${MEMBER_NUMBER})`,
    values: { ':mn': memberNumber },
    put: {
      Put: {
        TableName: table,
        Item: {
          pk: memberGuardKey(memberNumber),
          application_id: id,
          sequence,
          issued_at: now.toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}
