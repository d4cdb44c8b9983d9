import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import {
  CAMPAIGN_CODE_LENGTH,
  type Campaign,
  type CampaignInput,
  campaignInputSchema,
  campaignStatusInputSchema,
} from '../../rules/campaigns';
import { inScope, type StaffScope } from '../../rules/staff-scope';
import { type CampaignAudit, makeCampaignAudit } from '../adapters/campaign-audit';
import { type CampaignStore, makeCampaignStore } from '../adapters/campaigns';
import { systemClock } from '../lib/clock';
import { randomCode } from '../lib/short-codes';
import { dbRuntime } from '../lib/db-runtime';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff, type Staff } from '../lib/staff';
import { wiredOnFirstCall } from '../lib/wiring';

// The staff area's campaigns (issue 19): the list, a new campaign with a fresh code, pause
// and resume. Admins and viewers see every campaign; a coordinator sees, makes and pauses
// only campaigns of their districts (a statewide campaign, without district, is an
// admin's). Each change writes its audit entry (lambdas/adapters/campaign-audit.ts).

interface Deps {
  readonly campaigns: CampaignStore;
  readonly audit: CampaignAudit;
  readonly clock: () => Date;
  /** A fresh campaign code (crypto random); tests give fixed ones to force a collision. */
  readonly newCode?: () => string;
}

/** CAMPAIGN_CODE_LENGTH characters of CODE_ALPHABET, each from a cryptographic source. */
export const randomCampaignCode = (): string => randomCode(CAMPAIGN_CODE_LENGTH);

/** Codes tried before giving up: with 887 million codes, a second collision in a row is a fault. */
const CODE_ATTEMPTS = 5;

/** A scoped staff member sees a campaign of their districts only; a statewide one is not theirs. */
const visibleTo = (scope: StaffScope, campaign: Pick<Campaign, 'district'>) =>
  !scope.districts || (campaign.district !== undefined && inScope(scope, campaign.district));

async function create(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff) {
  const input: CampaignInput = parseBody(event, campaignInputSchema);
  if (staff.scope.districts) {
    // A coordinator's campaign names one of their districts.
    if (!input.district) throw new AppError('VALIDATION_FAILED', { fields: { district: 'REQUIRED' } });
    if (!inScope(staff.scope, input.district)) throw new AppError('FORBIDDEN');
  }
  const now = deps.clock();
  const newCode = deps.newCode ?? randomCampaignCode;
  for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt++) {
    const campaign: Campaign = {
      ...input,
      id: randomUUID(),
      code: newCode(),
      status: 'active',
      created_at: now.toISOString(),
    };
    if ((await deps.campaigns.insert(campaign)) === 'code-taken') continue;
    await deps.audit.record(
      { action: 'campaign-create', id: campaign.id, code: campaign.code, district: campaign.district },
      staff,
      now,
    );
    logger.info('Campaign created', { campaignId: campaign.id, attempt });
    return json(201, campaign);
  }
  throw new Error(`No free campaign code after ${CODE_ATTEMPTS} attempts`);
}

async function setStatus(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff) {
  const id = pathParameter(event, 'id');
  const { status } = parseBody(event, campaignStatusInputSchema);
  // Another district's campaign is not found, as another district's application is.
  const current = await deps.campaigns.get(id);
  if (!current || !visibleTo(staff.scope, current)) throw new AppError('NOT_FOUND');
  if (current.status === status) return json(200, current);
  const changed = await deps.campaigns.setStatus(id, status);
  if (!changed) throw new AppError('NOT_FOUND');
  await deps.audit.record({ action: 'campaign-status', id, code: changed.code, status }, staff, deps.clock());
  logger.info('Campaign status changed', { campaignId: id, status });
  return json(200, changed);
}

export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    if (event.routeKey === 'GET /api/admin/campaigns') {
      const staff = requireStaff(event);
      const items = (await deps.campaigns.list()).filter((c) => visibleTo(staff.scope, c));
      return json(200, { items });
    }
    const staff = requireStaff(event, 'review');
    if (event.routeKey === 'POST /api/admin/campaigns') return create(deps, event, staff);
    if (event.routeKey === 'PATCH /api/admin/campaigns/{id}') return setStatus(deps, event, staff);
    throw new AppError('NOT_FOUND');
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('campaigns', 'audit');
  return makeHandler({
    campaigns: makeCampaignStore(db, tables.campaigns),
    audit: makeCampaignAudit(db, tables.audit),
    clock: systemClock(),
  });
});
