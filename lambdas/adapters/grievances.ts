import * as v from 'valibot';
import type { OtpChannel } from '../../rules/api';
import { grievanceDueAt, grievanceReference, grievanceStatuses, type StaffGrievance } from '../../rules/grievances';
import { maskPhone } from '../../rules/phone';
import {
  type Db,
  DeleteCommand,
  GetCommand,
  isConditionFailed,
  isTransactionCanceled,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../lib/db';
import { queryAll } from '../lib/dynamo';
import { grievanceAuditPut } from './grievance-audit';
import type { Actor } from './review';

// The grievances table (contracts/table-definitions.ts): one item per ticket,
// `GRIEVANCE#<id>`. A ticket not yet closed carries `queue` (`open` or `answered`) and
// `due_sort` (`<due at>#<id>`), the keys of the sparse `by-due` index; a closed one
// carries `closed_list` (`CLOSED`) and `closed_at` instead, those of `by-closed`. The
// answer and the closing each write their audit entry in the same transaction.

export const grievanceKey = (id: string) => `GRIEVANCE#${id}`;
const BY_DUE = 'by-due';
const BY_CLOSED = 'by-closed';
export const CLOSED_LIST = 'CLOSED';

/** A ticket as stored, its number whole (the consumer sends to it; staff see it masked). */
export interface Grievance {
  readonly id: string;
  readonly reference: string;
  readonly text: string;
  readonly phone: string;
  readonly language: 'en' | 'ta';
  readonly via: 'verified' | 'contact';
  readonly applicationId?: string;
  /** The application's district when opened (English name): a coordinator's scope. */
  readonly district?: string;
  readonly status: StaffGrievance['status'];
  readonly openedAt: string;
  readonly dueAt: string;
  readonly answer?: string;
  readonly answeredAt?: string;
  readonly answerSentAt?: string;
  readonly closedAt?: string;
}

export type NewGrievance = Pick<
  Grievance,
  'id' | 'text' | 'phone' | 'language' | 'via' | 'applicationId' | 'district' | 'openedAt'
>;

const optionalString = v.optional(v.string());
const itemSchema = v.object({
  id: v.string(),
  text: v.string(),
  phone_number: v.pipe(v.string(), v.regex(/^\d{12}$/)),
  language: v.picklist(['en', 'ta']),
  via: v.picklist(['verified', 'contact']),
  application_id: optionalString,
  district: optionalString,
  status: v.picklist(grievanceStatuses),
  opened_at: v.string(),
  due_at: v.string(),
  answer: optionalString,
  answered_at: optionalString,
  answer_sent_at: optionalString,
  closed_at: optionalString,
});

function parseGrievance(item: Record<string, unknown> | undefined): Grievance | undefined {
  const parsed = v.safeParse(itemSchema, item);
  if (!parsed.success) return undefined;
  const i = parsed.output;
  return {
    id: i.id,
    reference: grievanceReference(i.id),
    text: i.text,
    phone: i.phone_number,
    language: i.language,
    via: i.via,
    status: i.status,
    openedAt: i.opened_at,
    dueAt: i.due_at,
    ...(i.application_id !== undefined && { applicationId: i.application_id }),
    ...(i.district !== undefined && { district: i.district }),
    ...(i.answer !== undefined && { answer: i.answer }),
    ...(i.answered_at !== undefined && { answeredAt: i.answered_at }),
    ...(i.answer_sent_at !== undefined && { answerSentAt: i.answer_sent_at }),
    ...(i.closed_at !== undefined && { closedAt: i.closed_at }),
  };
}

/** What the staff screen shows: the number masked. */
export function toStaffGrievance({ phone, ...rest }: Grievance): StaffGrievance {
  return { ...rest, phone: maskPhone(phone) };
}

export interface GrievanceStore {
  /** Stores a new ticket; `id-taken` when another has its id (draw another). */
  open(ticket: NewGrievance): Promise<Grievance | 'id-taken'>;
  get(id: string): Promise<Grievance | undefined>;
  /** The tickets not yet closed, the soonest due first. */
  listActive(): Promise<Grievance[]>;
  /** Writes the answer of an open ticket with its audit entry; `not-open` once answered or closed. */
  answer(id: string, answer: string, actor: Actor, now: Date): Promise<Grievance | 'not-found' | 'not-open'>;
  /** Closes an open or answered ticket with its audit entry. */
  close(id: string, actor: Actor, now: Date): Promise<Grievance | 'not-found' | 'closed'>;
  /** The answer's message went (the outbound consumer); nothing when the ticket is gone. */
  markSent(id: string, channel: OtpChannel, at: Date): Promise<void>;
}

/**
 * A ticket read by id, and the record that its answer went: all the outbound consumer and
 * the answer page need (their grants: GetItem, and UpdateItem for the consumer, of
 * `GRIEVANCE#` items only).
 */
export function makeGrievanceReader(db: Db, table: string): Pick<GrievanceStore, 'get' | 'markSent'> {
  return {
    get: async (id) =>
      parseGrievance(
        (await db.send(new GetCommand({ TableName: table, Key: { pk: grievanceKey(id) }, ConsistentRead: true }))).Item,
      ),
    async markSent(id, channel, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: grievanceKey(id) },
            UpdateExpression: 'SET answer_sent_at = :at, answer_channel = :c',
            ExpressionAttributeValues: { ':at': at.toISOString(), ':c': channel },
            ConditionExpression: 'attribute_exists(pk)',
          }),
        );
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    },
  };
}

/** A new ticket's write: all the public routes do (their grant: PutItem of `GRIEVANCE#` items only). */
export function makeGrievanceOpener(db: Db, table: string): Pick<GrievanceStore, 'open'> {
  return {
    async open(ticket) {
      const dueAt = grievanceDueAt(ticket.openedAt);
      const item = {
        pk: grievanceKey(ticket.id),
        id: ticket.id,
        text: ticket.text,
        phone_number: ticket.phone,
        language: ticket.language,
        via: ticket.via,
        ...(ticket.applicationId !== undefined && { application_id: ticket.applicationId }),
        ...(ticket.district !== undefined && { district: ticket.district }),
        status: 'open',
        opened_at: ticket.openedAt,
        due_at: dueAt,
        queue: 'open',
        due_sort: `${dueAt}#${ticket.id}`,
      };
      try {
        await db.send(
          new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
      } catch (error) {
        if (isConditionFailed(error)) return 'id-taken';
        throw error;
      }
      return parseGrievance(item)!;
    },
  };
}

export function makeGrievanceStore(db: Db, tables: { grievances: string; audit: string }): GrievanceStore {
  const table = tables.grievances;
  const reader = makeGrievanceReader(db, table);
  const get = reader.get;

  /** One change of a ticket with its audit entry; the old item's reason when the condition failed. */
  const change = async (
    id: string,
    update: { expression: string; values: Record<string, unknown>; condition: string },
    audit: ReturnType<typeof grievanceAuditPut>,
  ): Promise<'changed' | 'condition-failed'> => {
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: { pk: grievanceKey(id) },
                UpdateExpression: update.expression,
                ExpressionAttributeNames: { '#s': 'status', '#q': 'queue' },
                ExpressionAttributeValues: update.values,
                ConditionExpression: update.condition,
              },
            },
            { Put: audit },
          ],
        }),
      );
      return 'changed';
    } catch (error) {
      if (isTransactionCanceled(error) && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
        return 'condition-failed';
      }
      throw error;
    }
  };

  return {
    ...makeGrievanceOpener(db, table),
    get,
    async listActive() {
      const read = (queue: 'open' | 'answered') =>
        queryAll(db, {
          TableName: table,
          IndexName: BY_DUE,
          KeyConditionExpression: '#q = :q',
          ExpressionAttributeNames: { '#q': 'queue' },
          ExpressionAttributeValues: { ':q': queue },
        });
      const items = (await Promise.all([read('open'), read('answered')])).flat();
      return items
        .map((item) => parseGrievance(item))
        .filter((g): g is Grievance => g !== undefined)
        .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id));
    },
    async answer(id, answer, actor, now) {
      const current = await get(id);
      if (!current) return 'not-found';
      if (current.status !== 'open') return 'not-open';
      const at = now.toISOString();
      const outcome = await change(
        id,
        {
          expression: 'SET answer = :a, answered_at = :at, answered_by = :by, #s = :answered, #q = :answered',
          values: {
            ':a': answer,
            ':at': at,
            ':by': actor.email || actor.sub,
            ':answered': 'answered',
            ':open': 'open',
          },
          condition: 'attribute_exists(pk) AND #s = :open',
        },
        grievanceAuditPut(tables.audit, { action: 'grievance-answer', id, reference: current.reference }, actor, now),
      );
      if (outcome === 'condition-failed') return (await get(id)) ? 'not-open' : 'not-found';
      return { ...current, status: 'answered', answer, answeredAt: at };
    },
    async close(id, actor, now) {
      const current = await get(id);
      if (!current) return 'not-found';
      if (current.status === 'closed') return 'closed';
      const at = now.toISOString();
      const outcome = await change(
        id,
        {
          expression: 'SET #s = :closed, closed_at = :at, closed_by = :by, closed_list = :list REMOVE #q, due_sort',
          values: { ':closed': 'closed', ':at': at, ':by': actor.email || actor.sub, ':list': CLOSED_LIST },
          condition: 'attribute_exists(pk) AND #s <> :closed',
        },
        grievanceAuditPut(tables.audit, { action: 'grievance-close', id, reference: current.reference }, actor, now),
      );
      if (outcome === 'condition-failed') return (await get(id)) ? 'closed' : 'not-found';
      return { ...current, status: 'closed', closedAt: at };
    },
    markSent: reader.markSent,
  };
}

// --- The daily job's reads and erasures (lambdas/lib/grievance-retention.ts)

export interface GrievanceRetentionStore {
  /** Open tickets due before `until` (ISO), the overdue ones included. */
  countOpenDueBefore(until: string): Promise<number>;
  /** A page of closed tickets closed before `cutoff` (ISO), oldest first. */
  closedBefore(
    cutoff: string,
    start?: Record<string, unknown>,
  ): Promise<{ items: { id: string; closedAt: string }[]; next?: Record<string, unknown> }>;
  /** Deletes a closed ticket while it is still closed at `closedAt`; false when it changed or went. */
  erase(id: string, closedAt: string): Promise<boolean>;
}

export function makeGrievanceRetentionStore(db: Db, table: string): GrievanceRetentionStore {
  return {
    async countOpenDueBefore(until) {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            IndexName: BY_DUE,
            KeyConditionExpression: '#q = :open AND due_sort < :until',
            ExpressionAttributeNames: { '#q': 'queue' },
            ExpressionAttributeValues: { ':open': 'open', ':until': until },
            Select: 'COUNT',
            ...(start && { ExclusiveStartKey: start }),
          }),
        );
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return count;
    },
    async closedBefore(cutoff, start) {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: BY_CLOSED,
          KeyConditionExpression: 'closed_list = :list AND closed_at < :cutoff',
          ExpressionAttributeValues: { ':list': CLOSED_LIST, ':cutoff': cutoff },
          ProjectionExpression: 'id, closed_at',
          Limit: 100,
          ...(start && { ExclusiveStartKey: start }),
        }),
      );
      return {
        items: (page.Items ?? []).map((item) => ({ id: String(item.id), closedAt: String(item.closed_at) })),
        ...(page.LastEvaluatedKey && { next: page.LastEvaluatedKey }),
      };
    },
    async erase(id, closedAt) {
      try {
        await db.send(
          new DeleteCommand({
            TableName: table,
            Key: { pk: grievanceKey(id) },
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':closed': 'closed', ':at': closedAt },
            ConditionExpression: '#s = :closed AND closed_at = :at',
          }),
        );
      } catch (error) {
        if (isConditionFailed(error)) return false;
        throw error;
      }
      return true;
    },
  };
}
