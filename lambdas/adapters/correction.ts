import { randomUUID } from 'node:crypto';
import {
  APPLICANT_ACTOR,
  type CorrectableField,
  type CorrectionChanges,
  correctableFields,
} from '../../rules/my-application';
import { type Db, GetCommand, isTransactionCanceled, TransactWriteCommand } from '../lib/db';
import { applicationKey, campaignKeys, districtStatus } from './application-items';

// The applicant's correction of their own application (issue 21, DPDP Act 2023 s. 12):
// the changed fields and the index keys derived from the district, in one transaction
// with an audit entry that names the fields changed (never their old or new values: a
// correction is also the wish that the old value be gone). The applications stream then
// carries the change to the rollups, the search index and the webhook's readers.

export interface CorrectionTables {
  readonly applications: string;
  readonly audit: string;
}

export type CorrectionOutcome =
  | { readonly kind: 'corrected'; readonly changed: CorrectableField[] }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'not-found' }
  /** Staff changed it at every try (a status change meanwhile): nothing written; try again. */
  | { readonly kind: 'busy' };

const TRIES = 3;

/** The fields whose value the changes really change (an email given empty takes it away). */
export function changedFields(current: Record<string, unknown>, changes: CorrectionChanges): CorrectableField[] {
  return correctableFields.filter((field) => Object.hasOwn(changes, field) && changes[field] !== current[field]);
}

function correctionUpdate(id: string, current: Record<string, unknown>, changes: CorrectionChanges, now: Date) {
  const changed = changedFields(current, changes);
  const sets: string[] = ['updated_at = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now.toISOString() };
  for (const field of changed) {
    names[`#${field}`] = field;
    const value = changes[field];
    if (value === undefined) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  const status = String(current.application_status);
  const readDistrict = typeof current.revenue_district === 'string' ? current.revenue_district : undefined;
  // The listing indexes' keys follow the district (application-items.ts indexKeys).
  if (changed.includes('revenue_district')) {
    const district = changes.revenue_district;
    sets.push('district_status = :ds');
    values[':ds'] = districtStatus(district, status);
    if (typeof current.campaign_id === 'string') {
      sets.push('campaign_district_status = :cds');
      values[':cds'] = campaignKeys(current.campaign_id, district, status).campaign_district_status;
    }
  }
  // Only over what was read: a status change or another correction meanwhile is read again.
  values[':status'] = status;
  const sameDistrict = readDistrict === undefined ? 'attribute_not_exists(#rd)' : '#rd = :read_district';
  if (readDistrict !== undefined) values[':read_district'] = readDistrict;
  names['#rd'] = 'revenue_district';
  return {
    changed,
    update: {
      Key: { pk: applicationKey(id) },
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: `application_status = :status AND ${sameDistrict}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export async function correctApplication(
  db: Db,
  tables: CorrectionTables,
  id: string,
  changes: CorrectionChanges,
  now: Date,
): Promise<CorrectionOutcome> {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const read = await db.send(
      new GetCommand({ TableName: tables.applications, Key: { pk: applicationKey(id) }, ConsistentRead: true }),
    );
    const current = read.Item;
    if (!current) return { kind: 'not-found' };
    const { changed, update } = correctionUpdate(id, current, changes, now);
    if (changed.length === 0) return { kind: 'unchanged' };
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: tables.applications, ...update } },
            {
              Put: {
                TableName: tables.audit,
                Item: {
                  pk: applicationKey(id),
                  sk: `${now.toISOString()}#${randomUUID()}`,
                  action: 'correction',
                  at: now.toISOString(),
                  by: APPLICANT_ACTOR.email,
                  by_sub: APPLICANT_ACTOR.sub,
                  fields: changed,
                },
              },
            },
          ],
        }),
      );
      return { kind: 'corrected', changed };
    } catch (error) {
      if (!isTransactionCanceled(error)) throw error;
    }
  }
  return { kind: 'busy' };
}
