// Functions that are not API routes (the queue and stream consumers), described like
// the routes of lib/api-routes.ts, and the checks that turn a route's needs into grants.
// Plain data: the App stack builds one ProjectFunction per route and per entry here.

import type { RouteDefinition } from './api-routes';
import { applicationsStreamTimeoutSeconds } from '../contracts/rollups-fence';
import { tables, type TableKey } from '../contracts/table-definitions';

export type TableAccess = 'read' | 'write' | 'readwrite';

export interface TableGrant {
  readonly table: TableKey;
  readonly access: TableAccess;
  /**
   * Access limited to items whose partition key matches one of these (`dynamodb:LeadingKeys`,
   * `*` as a wildcard): GetItem to read, PutItem to write; no Query, no Scan, no update,
   * no other item. For the public functions that need one known item of a table that holds
   * every application, and the approvals' referral codes (`REF#*` of campaigns).
   */
  readonly items?: readonly string[];
  /**
   * With `items`, what else those items allow: `dynamodb:Query` of their partitions (an
   * application's audit trail, issue 21), `dynamodb:DeleteItem` of them (the applicant's
   * own withdrawal erases their application, its number's guard and its card's),
   * `dynamodb:UpdateItem` of them (the applicant's correction of their application).
   */
  readonly itemActions?: readonly ItemAction[];
}

export type ItemAction = 'dynamodb:Query' | 'dynamodb:DeleteItem' | 'dynamodb:UpdateItem';

/**
 * The stage's secrets, each its own (lib/constructs/app-secrets.ts) so that a function is
 * granted exactly those it reads: `provider` (Meta, webhook and reCAPTCHA credentials),
 * `otpHashKey`, `signingKey`, `cardKey` (the member cards' keys, issue 20), and `origin` (CloudFront's token, which every API function
 * reads to refuse requests that did not come through CloudFront).
 */
const secretNames = ['provider', 'otpHashKey', 'signingKey', 'cardKey', 'origin'] as const;
export type SecretName = (typeof secretNames)[number];
/** What a route or background function may name; `origin` goes to every API function. */
export type FunctionSecret = Exclude<SecretName, 'origin'>;

/** Environment variables that carry the secrets' ARNs (never their values): lambdas/adapters/secrets.ts. */
export const secretEnvVars = {
  provider: 'PROVIDER_SECRET_ARN',
  otpHashKey: 'OTP_HASH_KEY_SECRET_ARN',
  signingKey: 'SIGNING_KEY_SECRET_ARN',
  cardKey: 'CARD_KEY_SECRET_ARN',
  origin: 'ORIGIN_SECRET_ARN',
} as const satisfies Record<SecretName, string>;

/** Environment variable that carries the outbound queue's URL. */
export const outboundQueueEnvVar = 'OUTBOUND_QUEUE_URL';

/** What a function needs besides tables; the same flags as a route definition. */
export interface FunctionNeeds {
  /** The secrets the function reads, each granted on its own (see secretNames). */
  readonly secrets?: readonly FunctionSecret[];
  /** Sends to the outbound queue (welcome message, webhook, decision notices). */
  readonly sendsOutbound?: boolean;
  /** Sends SMS through AWS End User Messaging SMS (the stage's configuration set and sender id only). */
  readonly sendsSms?: boolean;
  /** Manages the staff pool's users (lib/api-routes.ts `managesStaff`). */
  readonly managesStaff?: boolean;
}

export interface BackgroundFunctionDefinition extends FunctionNeeds {
  /** Module under lambdas/handlers (without extension) exporting `handler`. */
  readonly handler: string;
  readonly description: string;
  readonly tables: readonly TableGrant[];
  readonly timeoutSeconds: number;
}

/**
 * Every API function's timeout. HTTP API waits up to 30 s, but a visitor on a phone should
 * not; the code request fits WhatsApp and the SMS fallback inside it (lambdas/lib/time-budget.ts).
 */
export const apiFunctionTimeoutSeconds = 10;

export const backgroundFunctions = {
  /** Sends every WhatsApp message after the OTP, and the automation webhook. */
  outboundConsumer: {
    handler: 'outbound-consumer',
    description: 'Sends queued WhatsApp messages and webhook calls',
    tables: [
      // Re-reads the application (consistently) before sending its welcome or webhook.
      { table: 'applications', access: 'read' },
      { table: 'idempotency', access: 'readwrite' },
      // Decision-notice claims, accepted messages and the unique WhatsApp recipients.
      { table: 'deliveries', access: 'readwrite' },
      // A grievance's answer (issue 21): its ticket, and the record that the answer went.
      { table: 'grievances', access: 'read', items: ['GRIEVANCE#*'], itemActions: ['dynamodb:UpdateItem'] },
    ],
    // Meta's token and the webhook's credentials; the hash key for the unique-recipient count;
    // the card key for the approval notice's card link (issue 20) and a grievance answer's link (issue 21).
    secrets: ['provider', 'otpHashKey', 'cardKey'],
    sendsSms: true,
    // Re-queues a message that met a provider's rate limit (without spending its retries).
    sendsOutbound: true,
    timeoutSeconds: 30,
  },
  /** Records SMS delivery events (configuration set -> SNS topic -> this function). */
  smsEvents: {
    handler: 'sms-events',
    description: 'Records SMS delivery events from the configuration set',
    tables: [{ table: 'deliveries', access: 'readwrite' }],
    timeoutSeconds: 30,
  },
  /** Keeps the report rollups and the search index in step with the applications table; tells the webhook of erasures. */
  applicationsStream: {
    handler: 'applications-stream',
    description: 'Updates report rollups and the search index from the applications stream',
    tables: [
      { table: 'rollups', access: 'readwrite' },
      { table: 'search', access: 'readwrite' },
    ],
    // An erased application's `deleted` event for the webhook (issue 21).
    sendsOutbound: true,
    timeoutSeconds: applicationsStreamTimeoutSeconds,
  },
  /** Daily at 00:00 IST: moves counted ages across bucket boundaries (birthdays). */
  rollupsAgeing: {
    handler: 'rollups-ageing',
    description: 'Ages the report rollups at midnight IST',
    tables: [{ table: 'rollups', access: 'readwrite' }],
    timeoutSeconds: 300,
  },
  /**
   * Daily at 00:00 IST (issue 21): erases the rejected applications kept past the stage's
   * retention period, as a staff erasure does (the application, its guards, its trail),
   * each erasure in the audit table; and the closed grievances kept past theirs (the
   * audit counts them), counting the open ones due within 7 days for their alarm.
   */
  retention: {
    handler: 'retention',
    description: 'Erases applications and grievances kept past their retention period',
    tables: [
      { table: 'applications', access: 'readwrite' },
      { table: 'audit', access: 'readwrite' },
      { table: 'grievances', access: 'readwrite' },
    ],
    timeoutSeconds: 300,
  },
} as const satisfies Record<string, BackgroundFunctionDefinition>;

function isTableKey(name: string): name is TableKey {
  return Object.hasOwn(tables, name);
}

/** Two grants on one table as one: any two different accesses together are readwrite. */
function mergeAccess(a: TableAccess, b: TableAccess): TableAccess {
  return a === b ? a : 'readwrite';
}

/**
 * The grants of one handler module, over every route it serves (the webhook's GET and POST
 * share a function): the union of their tables, each with the widest access named.
 */
export function handlerTableGrants(routes: readonly RouteDefinition[], handler: string): TableGrant[] {
  const merged = new Map<TableKey, TableGrant>();
  for (const route of routes.filter((r) => r.handler === handler)) {
    for (const grant of routeTableGrants(route)) {
      const known = merged.get(grant.table);
      if (!known) {
        merged.set(grant.table, grant);
        continue;
      }
      // Items stay limited only if every route limits them.
      const items = known.items && grant.items ? [...new Set([...known.items, ...grant.items])] : undefined;
      const itemActions = [...new Set([...(known.itemActions ?? []), ...(grant.itemActions ?? [])])];
      merged.set(grant.table, {
        table: grant.table,
        access: mergeAccess(known.access, grant.access),
        ...(items && { items }),
        ...(items && itemActions.length > 0 && { itemActions }),
      });
    }
  }
  return [...merged.values()];
}

/** What a handler module's routes need besides tables, together (any route that needs it). */
export function handlerNeeds(routes: readonly RouteDefinition[], handler: string): FunctionNeeds {
  const served = routes.filter((r) => r.handler === handler);
  const secrets = secretNames.filter((name): name is FunctionSecret =>
    served.some((r) => r.secrets?.includes(name as FunctionSecret)),
  );
  return {
    secrets: secrets.length > 0 ? secrets : undefined,
    sendsOutbound: served.some((r) => r.sendsOutbound === true) || undefined,
    sendsSms: served.some((r) => r.sendsSms === true) || undefined,
    managesStaff: served.some((r) => r.managesStaff === true) || undefined,
  };
}

/** The route table's grants, checked against the table definitions. */
function routeTableGrants(route: RouteDefinition): TableGrant[] {
  return route.tables.map(({ table, access, items, itemActions }) => {
    if (!isTableKey(table)) {
      throw new Error(`Route ${route.method} ${route.path} names unknown table "${table}"`);
    }
    return { table, access, ...(items && { items }), ...(items && itemActions && { itemActions }) };
  });
}
