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
    // The applicant's correction (issue 21): the changed fields of their own application
    // (UpdateItem), and an audit entry naming them in its trail.
    method: 'POST',
    path: '/api/me/correct',
    handler: 'my-correct',
    access: 'public',
    caller: 'visitor',
    tables: [
      { table: 'applications', access: 'read', items: ['PHONE#*', 'APP#*'], itemActions: ['dynamodb:UpdateItem'] },
      { table: 'audit', access: 'write', items: ['APP#*'] },
    ],
    secrets: ['signingKey'],
  },
  {
    // The applicant's withdrawal (issue 21): the staff erasure's writes, its audit entry,
    // and the item its confirmation message goes from.
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
      // The confirmation's number and language for the outbound consumer, a day at most (PutItem only).
      { table: 'deliveries', access: 'write', items: ['WITHDRAWN#*'] },
    ],
    // The verification's key only: the withdrawal makes no card link.
    secrets: ['signingKey'],
    // The confirmation message: `{ kind: 'withdrawn', applicationId }`, no number.
    sendsOutbound: true,
  },
];
