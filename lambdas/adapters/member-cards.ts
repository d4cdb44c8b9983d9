import { randomUUID } from 'node:crypto';
import { type Db, GetCommand, isTransactionCanceled, TransactWriteCommand } from '../lib/db';
import { CARD_SERIAL_LENGTH, type CardAction, type StaffCard, validCardStatuses } from '../../rules/member-card';
import { everyDistrict, inScope, type StaffScope } from '../../rules/staff-scope';
import { randomCode } from '../lib/short-codes';
import { applicationKey, phoneGuardKey, type StoredItem, storedApplicationSchema } from './application-items';
import * as v from 'valibot';

// The member's card (issue 20, rules/member-card.ts), in the applications table beside
// the applications:
//
//   APP#<id>        card_serial, card_issued_at, card_revoked_at, card_reissues, member_since
//   CARD#<serial>   the serial's guard: the one application whose card it is (or was)
//
// A first approval issues the card in its own transaction (`cardIssue`, with the member
// number); a reissue replaces the serial and its guard in one transaction, so the old
// serial names nothing any more. The link and the QR's token are derived from the serial
// (lambdas/lib/card-keys.ts): nothing secret is stored. The guard is what the public card
// routes read first (by GetItem only: their grant names `CARD#*` and `APP#*`), and the
// application is believed only while its `card_serial` is still that serial.

export const CARD_SERIAL = 'card_serial';
export const CARD_ISSUED_AT = 'card_issued_at';
export const CARD_REVOKED_AT = 'card_revoked_at';
export const CARD_REISSUES = 'card_reissues';
/** When the applicant first became a member (the first card's issue, with the member number). */
export const MEMBER_SINCE = 'member_since';
export const cardGuardKey = (serial: string) => `CARD#${serial}`;
export const newCardSerial = () => randomCode(CARD_SERIAL_LENGTH);

/** The card as stored on its application. */
export interface StoredCard {
  readonly serial: string;
  readonly issuedAt: string;
  readonly revokedAt?: string;
  readonly reissues: number;
  readonly memberSince: string;
}

export function cardOf(item: Record<string, unknown>): StoredCard | undefined {
  const serial = item[CARD_SERIAL];
  const issuedAt = item[CARD_ISSUED_AT];
  if (typeof serial !== 'string' || typeof issuedAt !== 'string') return undefined;
  const revokedAt = item[CARD_REVOKED_AT];
  const since = item[MEMBER_SINCE];
  return {
    serial,
    issuedAt,
    ...(typeof revokedAt === 'string' && { revokedAt }),
    reissues: Number(item[CARD_REISSUES] ?? 0) || 0,
    memberSince: typeof since === 'string' ? since : issuedAt,
  };
}

/** Whether the card verifies now: not revoked, and its application approved. */
export const cardIsLive = (item: Record<string, unknown>, card: StoredCard) =>
  card.revokedAt === undefined && (validCardStatuses as readonly unknown[]).includes(item.application_status);

/** The card as the details row shows it; undefined before the first approval. */
export function staffCardOf(item: Record<string, unknown>): StaffCard | undefined {
  const card = cardOf(item);
  if (!card) return undefined;
  return {
    state: card.revokedAt === undefined ? 'active' : 'revoked',
    issuedAt: card.issuedAt,
    ...(card.revokedAt !== undefined && { revokedAt: card.revokedAt }),
    valid: cardIsLive(item, card),
    reissues: card.reissues,
  };
}

/**
 * The parts of an approval's transaction that issue the application's card: only when it
 * has none (a re-approval keeps its card, revoked or not), with the serial's guard put
 * only if the serial is new (78 bits: a clash only fails the transaction, which is tried again).
 */
export function cardIssue(table: string, id: string, current: Record<string, unknown>, status: string, now: Date) {
  if (status !== 'approved' || typeof current[CARD_SERIAL] === 'string') return undefined;
  const serial = newCardSerial();
  return {
    set: `, ${CARD_SERIAL} = :cardSerial, ${CARD_ISSUED_AT} = :cardAt, ${MEMBER_SINCE} = if_not_exists(${MEMBER_SINCE}, :cardAt)`,
    condition: ` AND attribute_not_exists(${CARD_SERIAL})`,
    values: { ':cardSerial': serial, ':cardAt': now.toISOString() },
    put: {
      Put: {
        TableName: table,
        Item: { pk: cardGuardKey(serial), application_id: id, issued_at: now.toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/** The erasure's part: the card's guard goes with the application (only if it is still its). */
export function cardGuardDelete(table: string, id: string, current: Record<string, unknown>) {
  const serial = current[CARD_SERIAL];
  if (typeof serial !== 'string') return [];
  return [
    {
      Delete: {
        TableName: table,
        Key: { pk: cardGuardKey(serial) },
        ConditionExpression: 'attribute_not_exists(pk) OR application_id = :id',
        ExpressionAttributeValues: { ':id': id },
      },
    },
  ];
}

export interface CardActor {
  readonly sub: string;
  /** Empty when the token carried none. */
  readonly email: string;
}

/** The public card routes' reads, by GetItem only (their grant: `CARD#*`, `APP#*`, `PHONE#*`). */
export interface CardReader {
  /** The application whose current card has this serial (consistent reads); undefined for an unknown or replaced serial. */
  bySerial(serial: string): Promise<StoredItem | undefined>;
  /** The application of a number (its guard, then the application). */
  byPhone(phone: string): Promise<StoredItem | undefined>;
}

export interface CardChanges {
  /** Revokes or reissues the application's card, audited; `not-found` without a card or outside `scope`. */
  change(
    id: string,
    action: CardAction,
    actor: CardActor,
    now: Date,
    scope?: StaffScope,
  ): Promise<StaffCard | 'not-found'>;
}

interface CardTables {
  readonly applications: string;
  readonly audit: string;
}

/** An application by id, read consistently and parsed. */
function applicationReader(db: Db, table: string) {
  const getItem = async (pk: string) =>
    (await db.send(new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true }))).Item;
  const application = async (id: unknown) => {
    if (typeof id !== 'string') return undefined;
    const item = await getItem(applicationKey(id));
    return item ? v.parse(storedApplicationSchema, item) : undefined;
  };
  return { getItem, application };
}

export function makeCardReader(db: Db, applicationsTable: string): CardReader {
  const { getItem, application } = applicationReader(db, applicationsTable);
  return {
    async bySerial(serial) {
      const guard = await getItem(cardGuardKey(serial));
      const item = await application(guard?.application_id);
      return item && item[CARD_SERIAL] === serial ? item : undefined;
    },
    async byPhone(phone) {
      return application((await getItem(phoneGuardKey(phone)))?.application_id);
    },
  };
}

export function makeCardChanges(db: Db, tables: CardTables): CardChanges {
  const { application } = applicationReader(db, tables.applications);
  return {
    change: (id, action, actor, now, scope = everyDistrict) =>
      changeCard(db, tables, { id, action, actor, now, scope }, application),
  };
}

interface CardChange {
  readonly id: string;
  readonly action: CardAction;
  readonly actor: CardActor;
  readonly now: Date;
  readonly scope: StaffScope;
}

/**
 * A revoke marks the card (its serial stays: the QR then checks as not valid); a reissue
 * replaces the serial, its guard and clears the revocation, conditioned on the serial
 * read, so two admins at once give one new card and two audit entries. Optimistic: a
 * concurrent change makes it read again.
 */
async function changeCard(
  db: Db,
  tables: CardTables,
  { id, action, actor, now, scope }: CardChange,
  read: (id: string) => Promise<StoredItem | undefined>,
): Promise<StaffCard | 'not-found'> {
  for (let attempt = 1; ; attempt++) {
    const current = await read(id);
    const card = current && cardOf(current);
    if (!current || !card || !inScope(scope, current.revenue_district)) return 'not-found';
    const at = now.toISOString();
    const sameDistrict = scope.districts ? ' AND revenue_district = :district' : '';
    const serial = action === 'reissue' ? newCardSerial() : card.serial;
    const update =
      action === 'revoke'
        ? { expression: `SET ${CARD_REVOKED_AT} = if_not_exists(${CARD_REVOKED_AT}, :at)`, values: {} }
        : {
            expression: `SET ${CARD_SERIAL} = :new, ${CARD_ISSUED_AT} = :at, ${CARD_REISSUES} = if_not_exists(${CARD_REISSUES}, :zero) + :one REMOVE ${CARD_REVOKED_AT}`,
            values: { ':new': serial, ':zero': 0, ':one': 1 },
          };
    const guards =
      action === 'reissue'
        ? [
            {
              Delete: {
                TableName: tables.applications,
                Key: { pk: cardGuardKey(card.serial) },
                ConditionExpression: 'attribute_not_exists(pk) OR application_id = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
            {
              Put: {
                TableName: tables.applications,
                Item: { pk: cardGuardKey(serial), application_id: id, issued_at: at },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : [];
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tables.applications,
                Key: { pk: applicationKey(id) },
                UpdateExpression: update.expression,
                ConditionExpression: `${CARD_SERIAL} = :old${sameDistrict}`,
                ExpressionAttributeValues: {
                  ':old': card.serial,
                  ':at': at,
                  ...update.values,
                  ...(sameDistrict && { ':district': current.revenue_district }),
                },
              },
            },
            ...guards,
            {
              Put: {
                TableName: tables.audit,
                Item: {
                  pk: applicationKey(id),
                  sk: `${at}#${randomUUID()}`,
                  action: `card-${action}`,
                  at,
                  by: actor.email || actor.sub,
                  by_sub: actor.sub,
                },
              },
            },
          ],
        }),
      );
      const after = await read(id);
      const changed = after && staffCardOf(after);
      return changed ?? 'not-found';
    } catch (error) {
      if (!isTransactionCanceled(error) || attempt >= 5) throw error;
    }
  }
}
