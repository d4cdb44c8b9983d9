import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { ApplicationDetail, DecisionNotice } from '../../rules/staff-api';
import { toRow } from '../adapters/application-items';
import { type ApplicationRepository, makeApplicationRepository } from '../adapters/applications';
import { makeDecisionNoticeStore, noticesWithStatus } from '../adapters/decision-notices';
import { makeDeliveryStore } from '../adapters/deliveries';
import { staffCardOf } from '../adapters/member-cards';
import { makeReviewStore, REFERRAL_CODE, type ReviewStore } from '../adapters/review';
import { makeRollupsReader } from '../adapters/rollups-reader';
import { referrerCounts } from '../lib/referrals';
import { AppError, httpHandler, json, pathParameter } from '../lib/http';
import { inScope } from '../../rules/staff-scope';
import { requireStaff } from '../lib/staff';
import { dbRuntime } from '../lib/db-runtime';
import { wiredOnFirstCall } from '../lib/wiring';

interface Deps {
  readonly applications: Pick<ApplicationRepository, 'get'>;
  readonly review: Pick<ReviewStore, 'auditOf'>;
  /** The decision notices sent for an application, with their delivery status. */
  readonly notices: (applicationId: string) => Promise<DecisionNotice[]>;
  /** What the member's referral link brought (issue 19). */
  readonly referrals: (applicationId: string) => Promise<{ brought: number; approved: number }>;
}

/**
 * One application with its audit trail, the decision notices sent and the member's card, for the dashboard's
 * details row. Another district's application than the caller's is not found, exactly as
 * a missing id: an id tells nothing of what it names.
 */
export function makeHandler({ applications, review, notices, referrals }: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    const id = pathParameter(event, 'id');
    const [item, audit, sent] = await Promise.all([applications.get(id), review.auditOf(id), notices(id)]);
    if (!item || !inScope(staff.scope, item.revenue_district)) throw new AppError('NOT_FOUND');
    // Only a member with a code can have brought anyone: no rollups read for the others.
    const code = typeof item[REFERRAL_CODE] === 'string' ? item[REFERRAL_CODE] : undefined;
    const card = staffCardOf(item);
    const body: ApplicationDetail = {
      application: toRow(item),
      audit,
      notices: sent,
      ...(code && { referrals: { code, ...(await referrals(id)) } }),
      ...(card && { card }),
    };
    return json(200, body);
  });
}

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('applications', 'audit', 'deliveries', 'rollups');
  const rollups = makeRollupsReader(db, tables.rollups);
  const noticeStore = makeDecisionNoticeStore(db, tables.deliveries);
  const deliveries = makeDeliveryStore(db, tables.deliveries);
  return makeHandler({
    applications: makeApplicationRepository(db, tables.applications),
    review: makeReviewStore(db, tables),
    notices: (id) => noticesWithStatus(noticeStore, deliveries, id),
    referrals: (id) => referrerCounts(rollups, id),
  });
});
