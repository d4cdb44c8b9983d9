import { applicationIdOf, applicationKey } from '../lambdas/adapters/application-items';
import { BatchGetCommand, type Db, QueryCommand } from '../lambdas/lib/db';
import { scanPages } from '../lambdas/lib/dynamo';
import type { TableKey } from '../contracts/table-definitions';

// Who a personal-data breach touched (issue 21, docs/RUNBOOK.md "Personal-data breach"):
// for an incident window and the tables it exposed, every applicant whose data was in
// them during the window, as their numbers (to notify) and counts by district (for the
// Board's report). A record was exposed when it existed during the window: stored at or
// before its end and, for a record that expires, not expired before its start. What a
// table holds of a person decides how it leads to them:
//
//   applications  APP# items (submitted by the end) and PHONE# guards: the number itself
//   otps          one item per number (pk), created by the end, expiring after the start
//   rate-limits   keys naming a number (`cooldown#otp#91…`, `sliding#otp-sends#91…`)
//   search        an application's state item (`APP#<id>`): its name words and digits
//   audit         an application's trail (`APP#<id>`, entries by the end): staff notes
//   rollups       an application's counted state (`G#<gen>#APP#<id>`)
//   deliveries    messages and notice claims naming an application, not yet expired; a
//                 withdrawal's confirmation item (`WITHDRAWN#<id>`, a day): the number itself
//   campaigns     a member's referral code (`REF#<code>` → application id)
//   grievances    a ticket's contact number (issue 21), opened by the end
//
// Applications found by id are read for their number, district and language; one erased
// since is counted as such (nobody is left to notify). Numbers never reach the terminal:
// the command writes them to a file only the operator can read.

export const breachTables = [
  'applications',
  'otps',
  'rateLimits',
  'search',
  'audit',
  'rollups',
  'deliveries',
  'campaigns',
  'grievances',
] as const satisfies readonly TableKey[];
export type BreachTable = (typeof breachTables)[number];

export interface BreachWindow {
  readonly from: Date;
  readonly to: Date;
}

/** One person to notify: by number, with what the notice and the report need. */
export interface AffectedPerson {
  readonly phone: string;
  /** The application's district; undefined for a number that never applied (an OTP only). */
  readonly district?: string;
  readonly language?: 'en' | 'ta';
  /** The tables that held something of them. */
  readonly tables: Set<BreachTable>;
}

export interface BreachFindings {
  /** Items read and items found exposed, per table scanned. */
  readonly perTable: Partial<Record<BreachTable, { read: number; exposed: number }>>;
  /** By number. */
  readonly people: Map<string, AffectedPerson>;
  /** Applications named by an exposed record that no longer exist (erased since). */
  readonly erasedSince: number;
}

type Item = Record<string, unknown>;
const PHONE = /(?:^|#)(91[6-9]\d{9})(?:#|$)/;
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const ms = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : Number.NaN);

/** Stored at or before the window's end, and (when it expires: `ttl` in epoch seconds) alive at its start. */
function existedDuring(window: BreachWindow, storedAt: unknown, ttl?: unknown): boolean {
  const stored = ms(storedAt);
  if (Number.isFinite(stored) && stored > window.to.getTime()) return false;
  return typeof ttl !== 'number' || ttl * 1000 >= window.from.getTime();
}

/** What one exposed item leads to: an application id or a number directly. */
type Lead = { id: string } | { phone: string } | undefined;

const leads: Record<BreachTable, (item: Item, window: BreachWindow) => Lead> = {
  applications: (item, window) => {
    const pk = String(item.pk);
    if (pk.startsWith('PHONE#')) {
      // The guard names its application: read through it, so its submission time counts.
      const id = str(item.application_id);
      return id ? { id } : PHONE.test(pk.slice(6)) ? { phone: pk.slice(6) } : undefined;
    }
    const id = applicationIdOf(pk);
    return id && existedDuring(window, item.submitted_at) ? { id } : undefined;
  },
  otps: (item, window) => {
    const phone = PHONE.exec(String(item.pk))?.[1];
    return phone && existedDuring(window, item.created_at, item.ttl) ? { phone } : undefined;
  },
  rateLimits: (item, window) => {
    const phone = PHONE.exec(String(item.pk))?.[1];
    return phone && existedDuring(window, undefined, item.ttl) ? { phone } : undefined;
  },
  search: (item) => {
    const id = item.sk === 'STATE' ? applicationIdOf(String(item.pk)) : undefined;
    return id ? { id } : undefined;
  },
  audit: (item, window) => {
    const id = applicationIdOf(String(item.pk));
    return id && existedDuring(window, item.at) ? { id } : undefined;
  },
  rollups: (item) => {
    const id = /^G#[^#]+#APP#(.+)$/.exec(String(item.pk))?.[1];
    return id && item.sk === 'STATE' ? { id } : undefined;
  },
  deliveries: (item, window) => {
    // The application is erased; its confirmation's item holds the number (issue 21).
    const phone = String(item.pk).startsWith('WITHDRAWN#') ? str(item.phone_number) : undefined;
    if (phone) return existedDuring(window, item.created_at, item.ttl) ? { phone } : undefined;
    const id = str(item.application_id);
    return id && existedDuring(window, item.accepted_at ?? item.claimed_at, item.ttl) ? { id } : undefined;
  },
  campaigns: (item) => {
    const id = String(item.pk).startsWith('REF#') ? str(item.application_id) : undefined;
    return id ? { id } : undefined;
  },
  // The number itself, verified or only given on the form: its text may say anything of them.
  grievances: (item, window) => {
    const phone = PHONE.exec(str(item.phone_number) ?? '')?.[1];
    return phone && existedDuring(window, item.opened_at) ? { phone } : undefined;
  },
};

/** The applications of `ids`, read in batches of 100: number, district, language. */
async function readApplications(db: Db, table: string, ids: readonly string[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (let i = 0; i < ids.length; i += 100) {
    let keys: Record<string, unknown>[] = ids.slice(i, i + 100).map((id) => ({ pk: applicationKey(id) }));
    while (keys.length > 0) {
      const result = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: {
              Keys: keys,
              ProjectionExpression: 'id, phone_number, revenue_district, submitted_at, #l',
              ExpressionAttributeNames: { '#l': 'language' },
            },
          },
        }),
      );
      for (const item of result.Responses?.[table] ?? []) found.set(String(item.id), item);
      keys = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** Scans `scan` (each table whole, in its own pages) and resolves every lead to a person. */
export async function findBreachAffected(
  db: Db,
  tableNames: Record<BreachTable, string>,
  scan: readonly BreachTable[],
  window: BreachWindow,
): Promise<BreachFindings> {
  const perTable: BreachFindings['perTable'] = {};
  const people = new Map<string, AffectedPerson>();
  const idsFrom = new Map<string, Set<BreachTable>>();
  const add = (phone: string, table: BreachTable | Set<BreachTable>, application?: Item) => {
    const person = people.get(phone) ?? { phone, tables: new Set<BreachTable>() };
    const district = str(application?.revenue_district) ?? person.district;
    const language =
      application?.language === 'ta' || application?.language === 'en' ? application.language : person.language;
    for (const t of typeof table === 'string' ? [table] : table) person.tables.add(t);
    people.set(phone, { ...person, district, language });
  };
  for (const table of scan) {
    const counts = { read: 0, exposed: 0 };
    for await (const page of scanPages(db, { TableName: tableNames[table] })) {
      for (const item of page) {
        counts.read++;
        const lead = leads[table](item, window);
        if (!lead) continue;
        counts.exposed++;
        if ('phone' in lead) add(lead.phone, table);
        else idsFrom.set(lead.id, (idsFrom.get(lead.id) ?? new Set()).add(table));
      }
    }
    perTable[table] = counts;
  }
  const applications = await readApplications(db, tableNames.applications, [...idsFrom.keys()]);
  let erasedSince = 0;
  for (const [id, from] of idsFrom) {
    const application = applications.get(id);
    const phone = str(application?.phone_number);
    if (!phone) erasedSince++;
    // Nothing about an application existed before it was submitted (a search or rollups
    // item carries no time of its own).
    else if (existedDuring(window, application?.submitted_at)) add(phone, from, application);
  }
  // A number whose application exists gets its district even when only its guard or OTP was exposed.
  const numbersOnly = [...people.values()].filter((p) => p.district === undefined).map((p) => p.phone);
  if (numbersOnly.length > 0) await attachApplications(db, tableNames.applications, numbersOnly, add);
  return { perTable, people, erasedSince };
}

/** The applications (by the phone index) of numbers found without one. */
async function attachApplications(
  db: Db,
  table: string,
  phones: readonly string[],
  add: (phone: string, table: Set<BreachTable>, application: Item) => void,
): Promise<void> {
  for (const phone of phones) {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'by-phone',
        KeyConditionExpression: 'phone_number = :p',
        ExpressionAttributeValues: { ':p': phone },
      }),
    );
    const application = result.Items?.[0];
    if (application) add(phone, new Set(), application);
  }
}

/** Counts by district (a number that never applied under `null`), largest first. */
export function countByDistrict(people: Iterable<AffectedPerson>): [string | null, number][] {
  const counts = new Map<string | null, number>();
  for (const person of people) counts.set(person.district ?? null, (counts.get(person.district ?? null) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
}
