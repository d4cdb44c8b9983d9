// The applicant's own rights (issue 21, DPDP Act 2023): public routes that act only after
// the applicant proved their number with a code (the verification, read and not spent).
// Plain data, read through lib/api-routes.ts's `routes`.

import type { RouteDefinition } from './api-routes';

export const applicantRoutes: readonly RouteDefinition[] = [
  {
    // "My application" (issue 21): the verification (read, not spent) names the number's
    // application; answered whole, with its audit's status changes and its notices.
    method: 'POST',
    path: '/api/me',
    handler: 'my-application',
    access: 'public',
    caller: 'visitor',
    tables: [
      { table: 'applications', access: 'read', items: ['PHONE#*', 'APP#*'] },
      // Its status changes: a Query of its own trail's partition.
      { table: 'audit', access: 'read', items: ['APP#*'], itemActions: ['dynamodb:Query'] },
      { table: 'deliveries', access: 'read', items: ['NOTICE#*', 'MSG#*'] },
    ],
    secrets: ['signingKey', 'cardKey'],
  },
  {
    // The applicant's withdrawal (issue 21): the staff erasure's writes, and its audit entry.
    method: 'POST',
    path: '/api/me/withdraw',
    handler: 'my-withdraw',
    access: 'public',
    caller: 'visitor',
    tables: [
      // Read, then deleted: the application, its number's guard and its card's (no other write).
      {
        table: 'applications',
        access: 'read',
        items: ['PHONE#*', 'APP#*', 'CARD#*'],
        itemActions: ['dynamodb:DeleteItem'],
      },
      // The erasures' record: who (the applicant), which id, when.
      { table: 'audit', access: 'write', items: ['ERASURES'] },
    ],
    // The verification's key only: the withdrawal makes no card link.
    secrets: ['signingKey'],
  },
];
