import { grievanceChangedSchema, grievanceListSchema, type StaffGrievance } from '../../../../../rules/grievances';
import { staffRequest } from '../../../lib/staff-session';

// The Grievances page's calls (issue 21). The server decides who sees a ticket (a
// coordinator's districts; a ticket without an application is an admin's) and refuses a
// viewer's answer or closing whatever the page shows.

/** GET /api/admin/grievances: the tickets not yet closed, the soonest due first. */
export function listGrievances(getIdToken: () => Promise<string>, signal?: AbortSignal): Promise<StaffGrievance[]> {
  return staffRequest(getIdToken, '/admin/grievances', { schema: grievanceListSchema, signal }).then((r) => r.items);
}

/** POST /api/admin/grievances/{id}/answer: the answer is stored and goes to the number. */
export function answerGrievance(
  getIdToken: () => Promise<string>,
  id: string,
  answer: string,
): Promise<StaffGrievance> {
  return staffRequest(getIdToken, `/admin/grievances/${encodeURIComponent(id)}/answer`, {
    method: 'POST',
    body: { answer },
    schema: grievanceChangedSchema,
  }).then((r) => r.grievance);
}

/** POST /api/admin/grievances/{id}/close. */
export function closeGrievance(getIdToken: () => Promise<string>, id: string): Promise<StaffGrievance> {
  return staffRequest(getIdToken, `/admin/grievances/${encodeURIComponent(id)}/close`, {
    method: 'POST',
    body: {},
    schema: grievanceChangedSchema,
  }).then((r) => r.grievance);
}
