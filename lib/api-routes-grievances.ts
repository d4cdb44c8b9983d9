// Grievances (issue 21, rules/grievances.ts): the public routes that open one (after the
// code, or with a contact number behind the captcha), the answer page's, and the staff
// area's list, answer and close. Plain data, read through lib/api-routes.ts's `routes`.

import type { RouteDefinition } from './api-routes';

/**
 * The staff routes, one function: the list (any staff role, scoped on the server), and the
 * answer and the closing (admins; coordinators in their districts; never viewers), each
 * with its audit entry in the same transaction.
 */
const staffGrievanceRoute = (method: 'GET' | 'POST', path: string): RouteDefinition => ({
  method,
  path,
  handler: 'grievances-staff',
  access: 'staff',
  ...(method === 'GET' ? { query: [] } : { adminOnly: true }),
  tables: [
    // The list reads the `by-due` index; the answer and the closing update one ticket.
    { table: 'grievances', access: method === 'GET' ? 'read' : 'readwrite' },
    ...(method === 'GET' ? [] : [{ table: 'audit', access: 'write', items: ['GRIEVANCE'] } as const]),
  ],
  // The answer goes to the ticket's number through the outbound queue.
  ...(method === 'POST' && { sendsOutbound: true }),
});

export const grievanceRoutes: readonly RouteDefinition[] = [
  {
    // After the code: the verification (read, not spent) names the number and its application.
    method: 'POST',
    path: '/api/me/grievances',
    handler: 'grievance-mine',
    access: 'public',
    caller: 'visitor',
    tables: [
      { table: 'applications', access: 'read', items: ['PHONE#*', 'APP#*'] },
      { table: 'grievances', access: 'write', items: ['GRIEVANCE#*'] },
      // The number's own limit (grievances a day).
      { table: 'rateLimits', access: 'readwrite' },
    ],
    secrets: ['signingKey'],
  },
  {
    // Without a code: the captcha, the number's and the address's limits. No applications
    // table: whether the number has applied is not looked at, and the ticket names none.
    method: 'POST',
    path: '/api/grievances',
    handler: 'grievance-contact',
    access: 'public',
    caller: 'visitor',
    tables: [
      { table: 'grievances', access: 'write', items: ['GRIEVANCE#*'] },
      { table: 'rateLimits', access: 'readwrite' },
    ],
    // The captcha's secret; the key that hashes the viewer's address in its limit's key.
    secrets: ['provider', 'otpHashKey'],
  },
  {
    // The answer page: the link an SMS carried (its MAC is checked before the ticket is read).
    method: 'POST',
    path: '/api/grievances/answer',
    handler: 'grievance-answer-view',
    access: 'public',
    caller: 'visitor',
    tables: [{ table: 'grievances', access: 'read', items: ['GRIEVANCE#*'] }],
    secrets: ['cardKey'],
  },
  staffGrievanceRoute('GET', '/api/admin/grievances'),
  staffGrievanceRoute('POST', '/api/admin/grievances/{id}/answer'),
  staffGrievanceRoute('POST', '/api/admin/grievances/{id}/close'),
];
