import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import * as v from 'valibot';
import { grievanceAnswerInputSchema, type GrievanceList } from '../../rules/grievances';
import { inScope } from '../../rules/staff-scope';
import { type Grievance, type GrievanceStore, makeGrievanceStore, toStaffGrievance } from '../adapters/grievances';
import { makeSqsClient, makeSqsOutboundQueue, type OutboundQueue } from '../adapters/outbound-queue';
import { systemClock } from '../lib/clock';
import { dbRuntime } from '../lib/db-runtime';
import { baseEnvSchema, parseEnv } from '../lib/env';
import { AppError, httpHandler, json, parseBody, pathParameter } from '../lib/http';
import { logger } from '../lib/logger';
import { requireStaff, type Staff } from '../lib/staff';
import { tracedCall } from '../lib/tracing';
import { wiredOnFirstCall } from '../lib/wiring';

// The staff area's grievances (issue 21): the tickets not yet closed, the soonest due
// first; an answer (it goes to the ticket's number through the outbound queue) and the
// closing, each with its audit entry. Who sees a ticket is decided here, on the server:
// admins every one; a coordinator (or a viewer) one whose application is in their
// districts; a ticket without an application (opened with a contact number, or by a
// number that has none) is an admin's only. Viewers read; another's ticket is not found.

interface Deps {
  readonly grievances: GrievanceStore;
  /** Where the answers go; without it nothing is sent (tests of the screen alone). */
  readonly queue?: OutboundQueue;
  readonly clock: () => Date;
}

/** Whether the staff member may see the ticket (rules/staff-scope.ts). */
export function grievanceVisibleTo(staff: Pick<Staff, 'isAdmin' | 'scope'>, ticket: Grievance): boolean {
  if (staff.isAdmin) return true;
  return ticket.applicationId !== undefined && inScope(staff.scope, ticket.district);
}

async function visibleTicket(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff) {
  const id = pathParameter(event, 'id');
  const ticket = await deps.grievances.get(id);
  // Another district's ticket answers as a missing one: the id tells nothing.
  if (!ticket || !grievanceVisibleTo(staff, ticket)) throw new AppError('NOT_FOUND');
  return ticket;
}

async function answer(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff) {
  const { answer: text } = parseBody(event, grievanceAnswerInputSchema);
  const ticket = await visibleTicket(deps, event, staff);
  const result = await deps.grievances.answer(ticket.id, text, staff, deps.clock());
  if (result === 'not-found') throw new AppError('NOT_FOUND');
  if (result === 'not-open') throw new AppError('GRIEVANCE_NOT_OPEN');
  try {
    if (!deps.queue) throw new Error('No outbound queue');
    await deps.queue.send([{ kind: 'grievance-answer', grievanceId: ticket.id }]);
  } catch (error) {
    // The answer is stored and audited; the runbook queues its message again by the id.
    logger.error('Grievance answer not queued: queue it again (RUNBOOK, grievances)', {
      grievanceId: ticket.id,
      errorName: (error as Error).name,
    });
  }
  logger.info('Grievance answered', { grievanceId: ticket.id });
  return json(200, { grievance: toStaffGrievance(result) });
}

async function close(deps: Deps, event: APIGatewayProxyEventV2WithJWTAuthorizer, staff: Staff) {
  const ticket = await visibleTicket(deps, event, staff);
  const result = await deps.grievances.close(ticket.id, staff, deps.clock());
  if (result === 'not-found') throw new AppError('NOT_FOUND');
  if (result === 'closed') throw new AppError('GRIEVANCE_NOT_OPEN');
  logger.info('Grievance closed', { grievanceId: ticket.id });
  return json(200, { grievance: toStaffGrievance(result) });
}

export function makeHandler(deps: Deps) {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    if (event.routeKey === 'GET /api/admin/grievances') {
      const staff = requireStaff(event);
      const items = (await deps.grievances.listActive()).filter((g) => grievanceVisibleTo(staff, g));
      const body: GrievanceList = { items: items.map(toStaffGrievance) };
      return json(200, body);
    }
    const staff = requireStaff(event, 'review');
    if (event.routeKey === 'POST /api/admin/grievances/{id}/answer') return answer(deps, event, staff);
    if (event.routeKey === 'POST /api/admin/grievances/{id}/close') return close(deps, event, staff);
    throw new AppError('NOT_FOUND');
  });
}

const queueEnvSchema = v.object({
  ...baseEnvSchema.entries,
  /** Set on every function that sends outbound (lib/stateless-stack.ts); empty only in tests of the routes alone. */
  OUTBOUND_QUEUE_URL: v.optional(v.string(), ''),
});

export const handler = wiredOnFirstCall(() => {
  const { db, tables } = dbRuntime('grievances', 'audit');
  const env = parseEnv(queueEnvSchema);
  return makeHandler({
    grievances: makeGrievanceStore(db, tables),
    ...(env.OUTBOUND_QUEUE_URL && {
      queue: makeSqsOutboundQueue(tracedCall('SQS', makeSqsClient(env)), env.OUTBOUND_QUEUE_URL),
    }),
    clock: systemClock(),
  });
});
