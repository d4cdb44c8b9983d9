// The HTTP API's routes, once: the CDK API construct and the local adapter both read
// this table, so a route cannot exist in one and not the other. Plain data.

import { applicantRoutes } from './api-routes-applicant';
import { grievanceRoutes } from './api-routes-grievances';
import type { FunctionSecret, TableGrant } from './functions';

type RouteAccess = 'public' | 'staff';

export interface RouteDefinition {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway route path, with {param} placeholders. */
  readonly path: string;
  /** Handler module under lambdas/handlers (without extension); exports `handler`. */
  readonly handler: string;
  /** `staff` routes sit behind the JWT authorizer and must start with /api/admin/. */
  readonly access: RouteAccess;
  /** Tables the handler reads or writes: the least-privilege grants. */
  readonly tables: readonly (Omit<TableGrant, 'table'> & { readonly table: string })[];
  /**
   * Staff routes that change data: refused to viewers (the handler checks; the authorization
   * matrix holds it to this flag). Coordinators may still change a status in their
   * districts (`requireStaff(event, 'review')`); erasure and staff management are admins' only.
   */
  readonly adminOnly?: boolean;
  /**
   * The secrets the handler reads, each granted on its own (lib/functions.ts). Every API
   * function also reads the origin secret, for the front-door check.
   */
  readonly secrets?: readonly FunctionSecret[];
  /**
   * Who calls a public route: the visitor's page (default) or a messaging provider (Meta's
   * webhook). Provider routes are no step of the visitor's flow: no latency alarm of their own.
   */
  readonly caller?: 'visitor' | 'provider';
  /**
   * The query parameters a GET route reads. Never a search term or anything else that
   * names a person: CloudFront's standard logs keep every query string (search travels
   * in a POST body). The infrastructure tests hold every staff GET route to this.
   */
  readonly query?: readonly string[];
  /** Sends to the outbound queue. */
  readonly sendsOutbound?: boolean;
  /** Sends SMS through AWS End User Messaging SMS (the stage's configuration set and sender id only). */
  readonly sendsSms?: boolean;
  /**
   * Manages the staff pool's users (lambdas/adapters/staff-directory.ts): granted
   * contracts/staff-directory.ts `staffDirectoryActions` on the pool's ARN only, and given its id.
   */
  readonly managesStaff?: boolean;
}

/**
 * The Staff page's routes (issue 17), admins only, one function: the list, an invitation,
 * and the changes to one member by their sub. Every change writes an audit entry.
 */
const staffRoute = (method: 'GET' | 'POST', path: string): RouteDefinition => ({
  method,
  path,
  handler: 'staff-admin',
  access: 'staff',
  adminOnly: true,
  managesStaff: true,
  ...(method === 'GET' && { query: [] }),
  tables: [{ table: 'audit', access: 'write' }],
});

/**
 * The campaigns (issue 19), one function: the list (any staff role; a coordinator's
 * districts only), a new campaign and pause or resume (admins; coordinators in their
 * districts). Each change writes an audit entry.
 */
const campaignRoute = (method: 'GET' | 'POST' | 'PATCH', path: string): RouteDefinition => ({
  method,
  path,
  handler: 'campaigns',
  access: 'staff',
  ...(method === 'GET' ? { query: [] } : { adminOnly: true }),
  tables: [
    { table: 'campaigns', access: method === 'GET' ? 'read' : 'readwrite' },
    ...(method === 'GET' ? [] : [{ table: 'audit', access: 'write' } as const]),
  ],
});

export const routes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/health',
    handler: 'health',
    access: 'public',
    // One GetItem of one item that never exists: the round trip is the check.
    tables: [{ table: 'applications', access: 'read', items: ['HEALTH'] }],
    // Which provider-secret fields are still empty (names only, never a value: lib/placeholders.ts).
    secrets: ['provider'],
  },
  {
    method: 'POST',
    path: '/api/otp/request',
    handler: 'otp-request',
    access: 'public',
    // No applications table: whether a number has applied is not looked at before its code.
    tables: [
      { table: 'rateLimits', access: 'readwrite' },
      { table: 'otps', access: 'readwrite' },
      // The accepted message (for its delivery status) and the unique WhatsApp recipients.
      { table: 'deliveries', access: 'readwrite' },
    ],
    secrets: ['provider', 'otpHashKey', 'signingKey'],
    sendsSms: true,
  },
  {
    // The page polls the delivery of the code it asked for, by the handle the send returned.
    method: 'POST',
    path: '/api/otp/status',
    handler: 'otp-status',
    access: 'public',
    tables: [{ table: 'deliveries', access: 'read' }],
    secrets: ['signingKey'],
  },
  {
    // Meta's webhook: the subscription challenge (GET) and signed status callbacks (POST).
    // Public, no authorizer: Meta signs each POST with the app secret (X-Hub-Signature-256).
    method: 'GET',
    path: '/api/whatsapp/webhook',
    handler: 'whatsapp-webhook',
    access: 'public',
    caller: 'provider',
    tables: [],
    // The verify token and the app secret; no generated key.
    secrets: ['provider'],
  },
  {
    method: 'POST',
    path: '/api/whatsapp/webhook',
    handler: 'whatsapp-webhook',
    access: 'public',
    caller: 'provider',
    tables: [{ table: 'deliveries', access: 'readwrite' }],
    secrets: ['provider'],
  },
  {
    method: 'POST',
    path: '/api/otp/verify',
    handler: 'otp-verify',
    access: 'public',
    tables: [
      { table: 'otps', access: 'readwrite' },
      // Its per-number and per-address limits.
      { table: 'rateLimits', access: 'readwrite' },
      // "Already registered", after the right code: the numbers' guard items only, by GetItem.
      { table: 'applications', access: 'read', items: ['PHONE#*'] },
    ],
    secrets: ['otpHashKey', 'signingKey'],
  },
  {
    method: 'POST',
    path: '/api/applications',
    handler: 'applications-submit',
    access: 'public',
    tables: [
      { table: 'applications', access: 'write' },
      { table: 'otps', access: 'write' },
      // Attribution (issue 19): a campaign code's campaign and a referral code's member, by GetItem only.
      { table: 'campaigns', access: 'read', items: ['CODE#*', 'CAMPAIGN#*', 'REF#*'] },
    ],
    secrets: ['signingKey'],
    sendsOutbound: true,
  },
  // The member's card (issue 20). Its public routes read the applications table by
  // GetItem of named items only, and only after the link's MAC, the token's signature or
  // the verification checked out (docs/PRODUCT.md, "The member's card").
  {
    // The public keys, for the verification page's offline check: cacheable.
    method: 'GET',
    path: '/api/card/keys',
    handler: 'card-keys',
    access: 'public',
    caller: 'visitor',
    query: [],
    tables: [],
    secrets: ['cardKey'],
  },
  {
    // The card page: the link's secret part in the body (never in a URL a log keeps).
    method: 'POST',
    path: '/api/card',
    handler: 'card-view',
    access: 'public',
    caller: 'visitor',
    tables: [{ table: 'applications', access: 'read', items: ['CARD#*', 'APP#*'] }],
    secrets: ['cardKey'],
  },
  {
    // "Get my card": the verification (read, not spent) names the number's application.
    method: 'POST',
    path: '/api/card/mine',
    handler: 'card-mine',
    access: 'public',
    caller: 'visitor',
    tables: [{ table: 'applications', access: 'read', items: ['PHONE#*', 'APP#*'] }],
    secrets: ['signingKey', 'cardKey'],
  },
  ...applicantRoutes,
  {
    // The verification page's online check: `{ valid }` only.
    method: 'POST',
    path: '/api/card/status',
    handler: 'card-status',
    access: 'public',
    caller: 'visitor',
    tables: [{ table: 'applications', access: 'read', items: ['CARD#*', 'APP#*'] }],
    secrets: ['cardKey'],
  },
  {
    method: 'GET',
    path: '/api/admin/me',
    handler: 'admin-me',
    access: 'staff',
    query: [],
    tables: [],
  },
  {
    // The dashboard's list: a POST, so that the search term (names, numbers) travels in
    // the body and stays out of CloudFront's logs.
    method: 'POST',
    path: '/api/admin/applications/search',
    handler: 'applications-list',
    access: 'staff',
    tables: [
      { table: 'applications', access: 'read' },
      { table: 'rollups', access: 'read' },
      // The search index (issue 18): a text search reads it instead of the applications.
      { table: 'search', access: 'read' },
      // Reading many rows is on the record: the person's rows per window, the audit entry.
      { table: 'rateLimits', access: 'readwrite' },
      { table: 'audit', access: 'write' },
    ],
  },
  {
    method: 'GET',
    path: '/api/admin/applications/{id}',
    handler: 'application-detail',
    access: 'staff',
    query: [],
    tables: [
      { table: 'applications', access: 'read' },
      { table: 'audit', access: 'read' },
      // The decision notices sent to the applicant and their delivery status.
      { table: 'deliveries', access: 'read' },
      // What the member's referral link brought (issue 19): the rollups' referral boards.
      { table: 'rollups', access: 'read' },
    ],
  },
  {
    method: 'POST',
    path: '/api/admin/applications/status',
    handler: 'applications-status',
    access: 'staff',
    adminOnly: true,
    tables: [
      { table: 'applications', access: 'readwrite' },
      { table: 'audit', access: 'write' },
      // A first approval issues the member's referral code (issue 19): its REF# item only.
      { table: 'campaigns', access: 'write', items: ['REF#*'] },
    ],
    // Approvals and rejections queue a decision notice to the applicant.
    sendsOutbound: true,
  },
  {
    method: 'DELETE',
    path: '/api/admin/applications/{id}',
    handler: 'application-erase',
    access: 'staff',
    adminOnly: true,
    tables: [
      { table: 'applications', access: 'readwrite' },
      { table: 'audit', access: 'readwrite' },
    ],
  },
  {
    // Revoke or reissue a member's card (issue 20): audited like a status change.
    method: 'POST',
    path: '/api/admin/applications/{id}/card',
    handler: 'application-card',
    access: 'staff',
    adminOnly: true,
    tables: [
      { table: 'applications', access: 'readwrite' },
      { table: 'audit', access: 'write' },
    ],
  },
  {
    method: 'POST',
    path: '/api/admin/exports',
    handler: 'exports-start',
    access: 'staff',
    tables: [
      { table: 'applications', access: 'read' },
      { table: 'rollups', access: 'read' },
      { table: 'search', access: 'read' },
      { table: 'audit', access: 'write' },
    ],
  },
  {
    method: 'POST',
    path: '/api/admin/exports/{id}/complete',
    handler: 'exports-complete',
    access: 'staff',
    tables: [{ table: 'audit', access: 'write' }],
  },
  {
    method: 'GET',
    path: '/api/admin/stats',
    handler: 'admin-stats',
    access: 'staff',
    query: [],
    tables: [{ table: 'rollups', access: 'read' }],
  },
  {
    method: 'GET',
    path: '/api/admin/reports/summary',
    handler: 'reports-summary',
    access: 'staff',
    query: ['from', 'to', 'status', 'district', 'campaign'],
    tables: [
      { table: 'rollups', access: 'read' },
      // The leaderboard's referrers: name and district (issue 19).
      { table: 'applications', access: 'read' },
    ],
  },
  {
    method: 'GET',
    path: '/api/admin/reports/rows',
    handler: 'reports-rows',
    access: 'staff',
    query: ['from', 'to', 'status', 'district', 'campaign', 'limit', 'cursor', 'exportId'],
    tables: [
      { table: 'applications', access: 'read' },
      { table: 'rollups', access: 'read' },
      { table: 'rateLimits', access: 'readwrite' },
      { table: 'audit', access: 'write' },
    ],
  },
  staffRoute('GET', '/api/admin/staff'),
  staffRoute('POST', '/api/admin/staff'),
  staffRoute('POST', '/api/admin/staff/{sub}/assign'),
  staffRoute('POST', '/api/admin/staff/{sub}/disable'),
  staffRoute('POST', '/api/admin/staff/{sub}/enable'),
  staffRoute('POST', '/api/admin/staff/{sub}/reset-mfa'),
  campaignRoute('GET', '/api/admin/campaigns'),
  campaignRoute('POST', '/api/admin/campaigns'),
  campaignRoute('PATCH', '/api/admin/campaigns/{id}'),
  // Grievances (issue 21): the public routes that open one and show its answer, and the staff's.
  ...grievanceRoutes,
];
