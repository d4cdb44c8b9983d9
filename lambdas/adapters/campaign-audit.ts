import { randomUUID } from 'node:crypto';
import type { CampaignStatus } from '../../rules/campaigns';
import { type Db, PutCommand } from '../lib/db';
import type { Actor } from './review';

// Every campaign made or paused from the staff area, in the audit table beside the
// applications' and the staff's entries: partition `CAMPAIGN`, one item per change, sorted
// by time. Who did it as the review's entries keep it (their email as it was, and sub);
// what: the campaign's id and code, its district (none: statewide) and the status set.

type CampaignChange =
  | {
      readonly action: 'campaign-create';
      readonly id: string;
      readonly code: string;
      readonly district?: string | undefined;
    }
  | { readonly action: 'campaign-status'; readonly id: string; readonly code: string; readonly status: CampaignStatus };

export const CAMPAIGN_AUDIT_PK = 'CAMPAIGN';

export interface CampaignAudit {
  record(change: CampaignChange, actor: Actor, now: Date): Promise<void>;
}

export function makeCampaignAudit(db: Db, auditTable: string): CampaignAudit {
  return {
    async record(change, actor, now) {
      const { action, id, code } = change;
      await db.send(
        new PutCommand({
          TableName: auditTable,
          Item: {
            pk: CAMPAIGN_AUDIT_PK,
            sk: `${now.toISOString()}#${randomUUID()}`,
            action,
            at: now.toISOString(),
            by: actor.email || actor.sub,
            by_sub: actor.sub,
            campaign_id: id,
            campaign_code: code,
            ...(change.action === 'campaign-create' && change.district && { district: change.district }),
            ...(change.action === 'campaign-status' && { status: change.status }),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
  };
}
