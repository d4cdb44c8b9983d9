// The one description of every DynamoDB table: the CDK data construct and the local
// stand-in both build their tables from it, the Lambda code reads its env vars and index
// names. Plain data, no CDK or SDK imports.
//
// contracts/ holds what the CDK app (lib/), the Lambda code (lambdas/), the local stand-ins
// and the ops commands must agree on: tables, metric names, stack names, timings, config
// findings. Not rules/: that is the product's rules, bundled into the SPA too, and the
// browser needs none of this. Lambda code may not import lib/ (eslint.config.js), whose
// constructs would drag aws-cdk-lib into a function's bundle.

type KeyType = 'S' | 'N';

export interface KeyDefinition {
  readonly name: string;
  readonly type: KeyType;
}

interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
}

export interface TableDefinition {
  /** Suffix of the physical name and the construct id. */
  readonly name: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly indexes: readonly IndexDefinition[];
  readonly ttlAttribute?: string;
  readonly stream?: 'NEW_AND_OLD_IMAGES';
  /** Environment variable through which handlers learn the table's name. */
  readonly envVar: string;
}

const S = (name: string): KeyDefinition => ({ name, type: 'S' });

/** Sort key of every listing index: ISO timestamp + id, so ties keep a stable order. */
const submittedKey = S('submitted_sort');

export const tables = {
  /**
   * Applications, and one uniqueness guard item per phone number (pk `PHONE#91...`),
   * written in the same transaction as the application. Listing indexes are sparse:
   * guard items carry none of their keys.
   */
  applications: {
    name: 'applications',
    partitionKey: S('pk'),
    indexes: [
      { indexName: 'by-submitted', partitionKey: S('list_pk'), sortKey: submittedKey },
      { indexName: 'by-status', partitionKey: S('application_status'), sortKey: submittedKey },
      { indexName: 'by-district', partitionKey: S('revenue_district'), sortKey: submittedKey },
      { indexName: 'by-district-status', partitionKey: S('district_status'), sortKey: submittedKey },
      { indexName: 'by-phone', partitionKey: S('phone_number') },
      // Issue 19: the dashboard's campaign filter. Sparse (only applications that came
      // through a live campaign carry the keys). Three, so that every combination of the
      // filters reads one key, or a few merged, and never filters items out after reading
      // (a page's cost stays that of its rows whatever the campaign's size): the campaign
      // alone (`campaign_id`, as stored at submit); with a status (`campaign_status` =
      // `<campaign>#<status>`); with districts, any statuses (`campaign_district_status` =
      // `<campaign>#<district>#<status>`, one key per pair, as by-district-status).
      // CloudFormation adds one GSI per table per update: on a stage deployed before
      // them, deploy three times, adding one more of the three each time (RUNBOOK).
      { indexName: 'by-campaign', partitionKey: S('campaign_id'), sortKey: submittedKey },
      { indexName: 'by-campaign-status', partitionKey: S('campaign_status'), sortKey: submittedKey },
      {
        indexName: 'by-campaign-district-status',
        partitionKey: S('campaign_district_status'),
        sortKey: submittedKey,
      },
    ],
    stream: 'NEW_AND_OLD_IMAGES',
    envVar: 'TABLE_APPLICATIONS',
  },
  /** One OTP record per number (pk = 91-prefixed number); only a keyed hash of the code. */
  otps: {
    name: 'otps',
    partitionKey: S('pk'),
    indexes: [],
    ttlAttribute: 'ttl',
    envVar: 'TABLE_OTPS',
  },
  /** Fixed-window counters for rate limits. */
  rateLimits: {
    name: 'rate-limits',
    partitionKey: S('pk'),
    indexes: [],
    ttlAttribute: 'ttl',
    envVar: 'TABLE_RATE_LIMITS',
  },
  /**
   * Report rollups kept by the applications stream consumer (lambdas/adapters/rollups-*.ts):
   * per-day counters, per-application states, totals. The birthday index is sparse: it
   * holds the states of counted applications with a valid date of birth, by generation
   * and month-day of birth (`G#<generation>#MM-DD`), for the daily ageing of age buckets.
   */
  rollups: {
    name: 'rollups',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [
      { indexName: 'by-birthday', partitionKey: S('birthday'), sortKey: S('birth_date') },
      // Issue 19: a referral board's referrers by approved recruits (`rank` = the board's pk).
      { indexName: 'by-rank', partitionKey: S('rank'), sortKey: { name: 'a', type: 'N' } },
    ],
    envVar: 'TABLE_ROLLUPS',
  },
  /**
   * The dashboard search's index (issue 18, lambdas/adapters/search-index.ts), kept by the
   * applications stream's consumer: one token item per name word (`N#<first letter>`, sort
   * key the word), per number (`P#<last 4 digits>`, sort key the other digits reversed)
   * and per email (`E#<address>`), each with what the filters need; and one state item per
   * application (`APP#<id>`) listing its tokens and the stream sequence number they
   * reflect. A query reads one key's range: what it matches, whatever the table's size.
   */
  search: {
    name: 'search',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [],
    envVar: 'TABLE_SEARCH',
  },
  /** Audit trail: status changes, erasures, exports. pk = subject, sk = time#id. */
  audit: {
    name: 'audit',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [],
    envVar: 'TABLE_AUDIT',
  },
  /**
   * Messaging (lambdas/adapters/deliveries.ts): one item per message a provider accepted
   * (`MSG#<channel>#<provider message id>`: purpose, status and when each status came,
   * never the number), decision-notice claims (`NOTICE#<application id>#<decision>`), and
   * the unique WhatsApp recipients of the last 24 hours (`WA-RCPT#<keyed hash>` and hourly
   * `WA-UNIQUE#<hour>` counters), and a withdrawal's confirmation (`WITHDRAWN#<application id>`:
   * the number and language, until sent, a day at most; issue 21). Everything expires.
   */
  deliveries: {
    name: 'deliveries',
    partitionKey: S('pk'),
    indexes: [],
    ttlAttribute: 'ttl',
    envVar: 'TABLE_DELIVERIES',
  },
  /**
   * Where members come from (issue 19, rules/campaigns.ts): one item per campaign
   * (`CAMPAIGN#<id>`, listed through `by-created` with `list_pk` = `CAMPAIGN`), one per
   * campaign code (`CODE#<code>` → the campaign's id, written in the campaign's
   * transaction so a code is never given twice), and one per member's referral code
   * (`REF#<code>` → the member's application id, written when they are approved).
   */
  campaigns: {
    name: 'campaigns',
    partitionKey: S('pk'),
    indexes: [{ indexName: 'by-created', partitionKey: S('list_pk'), sortKey: S('created_at') }],
    envVar: 'TABLE_CAMPAIGNS',
  },
  /**
   * Grievances (issue 21, rules/grievances.ts; lambdas/adapters/grievances.ts): one item
   * per ticket (`GRIEVANCE#<id>`: the text, the contact number, the answer), never in the
   * applications table. Two sparse indexes: `by-due` holds the tickets not yet closed
   * (`queue` = `open` or `answered`, sorted by due date: the staff list and the alarm's
   * count), `by-closed` the closed ones by when (`closed_list` = `CLOSED`: the retention
   * job's erasures). Closing a ticket moves it from the one to the other.
   */
  grievances: {
    name: 'grievances',
    partitionKey: S('pk'),
    indexes: [
      { indexName: 'by-due', partitionKey: S('queue'), sortKey: S('due_sort') },
      { indexName: 'by-closed', partitionKey: S('closed_list'), sortKey: S('closed_at') },
    ],
    envVar: 'TABLE_GRIEVANCES',
  },
  /** Powertools idempotency records (its default key and expiry attribute names). */
  idempotency: {
    name: 'idempotency',
    partitionKey: S('id'),
    indexes: [],
    ttlAttribute: 'expiration',
    envVar: 'TABLE_IDEMPOTENCY',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof tables;
export const allTables: readonly TableDefinition[] = Object.values(tables);
