import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeApplicationRepository } from '../../lambdas/adapters/applications';
import { makeCampaignStore, referralCodeKey } from '../../lambdas/adapters/campaigns';
import { randomCampaignCode } from '../../lambdas/handlers/campaigns';
import { GetCommand, ScanCommand } from '../../lambdas/lib/db';
import { isReferralCode } from '../../rules/attribution';
import type { Campaign } from '../../rules/campaigns';
import { districts } from '../../rules/districts';
import type { ReportSummary } from '../../rules/report';
import type { ApplicationDetail, StatusChangeResponse } from '../../rules/staff-api';
import { startScopeTier, type ScopeTier } from '../support/scope-tier';
import { testStaff } from '../support/staff';
import { sendUntilDone } from '../support/status-change';
import { testSubmit } from '../support/submit';
import { signIn } from '../support/tokens';

// Issue 19's referrals through the staff API on DynamoDB Local, with the table's stream
// feeding the real rollups consumer: a first approval issues the member's referral code
// (once, whatever the concurrency), applications made through it record the referrer,
// and the details row and the reports' leaderboard count what the link brought, approved
// recruits only on the leaderboard, scoped to the reader's districts.

const shared = inject('tableNames');
const pool = inject('pool');
let tier: ScopeTier;
let submitWith: ReturnType<typeof testSubmit>['submitWith'];
let campaigns: ReturnType<typeof makeCampaignStore>;
const tokens = { admin: '', coordinator: '' };

beforeAll(async () => {
  tier = await startScopeTier('referrals', { search: false });
  campaigns = makeCampaignStore(tier.db, shared.campaigns!);
  ({ submitWith } = testSubmit({
    applications: makeApplicationRepository(tier.db, tier.names.applications),
    campaigns,
    otpTable: shared.otps!,
  }));
  tokens.admin = await signIn(inject('cognitoEndpoint'), pool.clientId, testStaff.admin);
  tokens.coordinator = await signIn(inject('cognitoEndpoint'), pool.clientId, testStaff.coordinator);
}, 60_000);
afterAll(() => tier?.stop());

/** An application in `district` (its first constituency), made through `attribution`. */
async function apply(name: string, district: string, attribution?: unknown): Promise<string> {
  const d = districts.find((x) => x.en === district)!;
  const made = await submitWith(attribution, {
    name,
    revenue_district: d.en,
    assembly_constituency: d.constituencies[0]!.en,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.id!;
}

async function setStatus(ids: string[], status: string): Promise<StatusChangeResponse> {
  const answer = await tier.call<StatusChangeResponse>(tokens.admin, 'POST', '/api/admin/applications/status', {
    ids,
    status,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

const detail = async (id: string, token = tokens.admin) =>
  (await tier.call<ApplicationDetail>(token, 'GET', `/api/admin/applications/${id}`)).body;

async function summary(query = '', token = tokens.admin): Promise<ReportSummary> {
  const answer = await tier.call<ReportSummary>(token, 'GET', `/api/admin/reports/summary${query}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

async function refItemsOf(id: string): Promise<string[]> {
  const { Items = [] } = await tier.db.send(
    new ScanCommand({
      TableName: shared.campaigns!,
      FilterExpression: 'application_id = :id AND begins_with(pk, :ref)',
      ExpressionAttributeValues: { ':id': id, ':ref': 'REF#' },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => String(item.pk));
}

const drained = async () => {
  await tier.poller.drain(60_000);
  expect(tier.poller.failures()).toEqual([]);
};

describe('referrals', () => {
  it('counts a chain: A approved; B through A approved, C through A rejected: 2 brought, 1 approved', async () => {
    const campaign: Campaign = {
      id: randomUUID(),
      code: randomCampaignCode(),
      name_en: 'Referral week',
      name_ta: 'பரிந்துரை வாரம்',
      kind: 'online',
      starts_on: '2026-01-01',
      ends_on: '2099-12-31',
      status: 'active',
      created_at: new Date().toISOString(),
    };
    expect(await campaigns.insert(campaign)).toBe('created');

    const a = await apply('Anbu Selvan', 'Madurai');
    expect((await detail(a)).referrals).toBeUndefined();
    await setStatus([a], 'approved');
    const code = (await detail(a)).referrals?.code;
    expect(isReferralCode(code)).toBe(true);
    // The code names A, and is neither their number nor their id.
    const ref = await tier.db.send(
      new GetCommand({ TableName: shared.campaigns!, Key: { pk: referralCodeKey(code!) } }),
    );
    expect(ref.Item?.application_id).toBe(a);
    expect(code).not.toContain(a.slice(0, 8));

    const b = await apply('Bala Murugan', 'Chennai', { referral: code, campaign: campaign.code });
    const c = await apply('Chitra Devi', 'Chennai', { referral: code });
    await setStatus([b], 'approved');
    await setStatus([c], 'rejected');
    // Moving A away and back keeps the code: no second one is issued.
    await setStatus([a], 'pending');
    await setStatus([a], 'approved');
    await drained();

    const counted = await detail(a);
    expect(counted.referrals).toEqual({ code, brought: 2, approved: 1 });
    expect(await refItemsOf(a)).toEqual([referralCodeKey(code!)]);
    // B got a code of their own on approval; C, rejected, none.
    expect(isReferralCode((await detail(b)).referrals?.code)).toBe(true);
    expect((await detail(c)).referrals).toBeUndefined();

    const all = await summary();
    expect(all.topReferrers).toEqual([{ id: a, name: 'Anbu Selvan', district: 'Madurai', brought: 2, approved: 1 }]);
    expect(all.referrals).toEqual({ applications: 2, approved: 1 });
    // Per campaign: B alone came through it.
    const byCampaign = await summary(`?campaign=${campaign.id}`);
    expect(byCampaign.topReferrers).toEqual([
      { id: a, name: 'Anbu Selvan', district: 'Madurai', brought: 1, approved: 1 },
    ]);
    expect(byCampaign.referrals).toEqual({ applications: 1, approved: 1 });
    // Per district: the recruits are of Chennai, none of Madurai.
    expect((await summary('?district=Madurai')).topReferrers).toEqual([]);
    expect((await summary('?district=Chennai')).topReferrers).toMatchObject([{ id: a, brought: 2, approved: 1 }]);
    // Rejected or pending only: the tile follows the statuses; the leaderboard counts approvals, of all time.
    const rejected = await summary('?status=rejected');
    expect(rejected.referrals).toEqual({ applications: 1, approved: 0 });
    expect(rejected.topReferrers).toMatchObject([{ id: a, approved: 1 }]);

    // Chennai's coordinator sees the counts of Chennai's recruits, but not who A (of Madurai) is.
    const scoped = await summary('', tokens.coordinator);
    expect(scoped.topReferrers).toEqual([{ id: null, name: null, district: 'Madurai', brought: 2, approved: 1 }]);

    // An approved recruit rejected later no longer counts as approved; an erased one not at all.
    await setStatus([b], 'rejected');
    const erased = await tier.call(tokens.admin, 'DELETE', `/api/admin/applications/${c}`);
    expect(erased.status).toBe(200);
    await drained();
    expect((await detail(a)).referrals).toEqual({ code, brought: 1, approved: 0 });
    expect((await summary()).topReferrers).toEqual([]);
  }, 120_000);

  it('issues one code per member under concurrent approvals, bulk and single mixed', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => apply(`Member ${i}`, 'Salem')));
    // Each request sends again what it had no time or tries for, as the staff screen does.
    const approve = (some: string[]) => sendUntilDone((left) => setStatus(left, 'approved'), some);
    const answers = await Promise.all([
      approve(ids.slice(0, 20)),
      approve(ids.slice(10, 30)),
      ...ids.slice(5, 25).map((id) => approve([id])),
    ]);
    // Each application changed exactly once; every other request found it already approved.
    const changed = answers.flatMap((a) => a.changed);
    expect(changed.sort()).toEqual([...ids].sort());
    const codes = await Promise.all(ids.map(async (id) => (await detail(id)).referrals?.code));
    expect(codes.every(isReferralCode)).toBe(true);
    expect(new Set(codes).size).toBe(ids.length);
    const refs = await Promise.all(ids.map(refItemsOf));
    expect(refs.map((r) => r.length)).toEqual(ids.map(() => 1));
  }, 120_000);
});
