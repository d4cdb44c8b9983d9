import * as v from 'valibot';
import { type Campaign, campaignSchema, type CampaignStatus } from '../../rules/campaigns';
import {
  type Db,
  GetCommand,
  isConditionFailed,
  isTransactionCanceled,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../lib/db';

// The campaigns table (contracts/table-definitions.ts): one item per campaign
// (`CAMPAIGN#<id>`, listed through `by-created` with `list_pk` = `CAMPAIGN`), one per code
// (`CODE#<code>` → the campaign's id, written in the campaign's transaction so that a code
// is never given twice) and one per member's referral code (`REF#<code>` → their
// application id). The submit function reads codes only (GetItem); the campaign routes
// list, create and pause.

export const campaignKey = (id: string) => `CAMPAIGN#${id}`;
export const campaignCodeKey = (code: string) => `CODE#${code}`;
export const referralCodeKey = (code: string) => `REF#${code}`;
export const CAMPAIGN_LIST_PK = 'CAMPAIGN';
const byCreated = 'by-created';

const codeItemSchema = v.object({ campaign_id: v.string() });
const referralItemSchema = v.object({ application_id: v.string() });

/** What the submit function reads: a code's campaign and a referral code's member. */
export interface CampaignLookup {
  /** The campaign a code names, whatever its status and dates; undefined when no campaign has it. */
  byCode(code: string): Promise<Campaign | undefined>;
  /** The application id of the member whose referral code this is. */
  referrer(code: string): Promise<string | undefined>;
}

export interface CampaignStore extends CampaignLookup {
  /** Every campaign, newest first. */
  list(): Promise<Campaign[]>;
  get(id: string): Promise<Campaign | undefined>;
  /** Writes the campaign and its code's item in one transaction; `code-taken` when another campaign has the code. */
  insert(campaign: Campaign): Promise<'created' | 'code-taken'>;
  /** Pauses or resumes; undefined when no campaign has this id. */
  setStatus(id: string, status: CampaignStatus): Promise<Campaign | undefined>;
}

/** A stored campaign item as the API answers it (no keys); undefined when the item is not one. */
function parseCampaign(item: Record<string, unknown> | undefined): Campaign | undefined {
  if (!item) return undefined;
  const parsed = v.safeParse(campaignSchema, item);
  return parsed.success ? parsed.output : undefined;
}

export function makeCampaignLookup(db: Db, tableName: string): CampaignLookup {
  const get = async (pk: string) => (await db.send(new GetCommand({ TableName: tableName, Key: { pk } }))).Item;
  return {
    async byCode(code) {
      const item = v.safeParse(codeItemSchema, await get(campaignCodeKey(code)));
      return item.success ? parseCampaign(await get(campaignKey(item.output.campaign_id))) : undefined;
    },
    async referrer(code) {
      const item = v.safeParse(referralItemSchema, await get(referralCodeKey(code)));
      return item.success ? item.output.application_id : undefined;
    },
  };
}

export function makeCampaignStore(db: Db, tableName: string): CampaignStore {
  return {
    ...makeCampaignLookup(db, tableName),
    async list() {
      const items: Campaign[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: byCreated,
            KeyConditionExpression: 'list_pk = :pk',
            ExpressionAttributeValues: { ':pk': CAMPAIGN_LIST_PK },
            ScanIndexForward: false,
            ...(start && { ExclusiveStartKey: start }),
          }),
        );
        for (const item of page.Items ?? []) {
          const campaign = parseCampaign(item);
          if (campaign) items.push(campaign);
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async get(id) {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: { pk: campaignKey(id) }, ConsistentRead: true }),
      );
      return parseCampaign(result.Item);
    },
    async insert(campaign) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    pk: campaignCodeKey(campaign.code),
                    campaign_id: campaign.id,
                    created_at: campaign.created_at,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...campaign, pk: campaignKey(campaign.id), list_pk: CAMPAIGN_LIST_PK },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
        return 'created';
      } catch (error) {
        if (isTransactionCanceled(error) && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
          return 'code-taken';
        }
        throw error;
      }
    },
    async setStatus(id, status) {
      try {
        const result = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: campaignKey(id) },
            UpdateExpression: 'SET #status = :status',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': status },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return parseCampaign(result.Attributes);
      } catch (error) {
        if (isConditionFailed(error)) return undefined;
        throw error;
      }
    },
  };
}
