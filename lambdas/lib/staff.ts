import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import {
  districtsClaim,
  parseDistrictIds,
  scopeOf,
  type StaffRole,
  staffRoles,
  type StaffScope,
} from '../../rules/staff-scope';
import { AppError } from './http';

export interface Staff {
  readonly sub: string;
  readonly email: string;
  readonly groups: readonly StaffRole[];
  /** The strongest of the user's groups: admin, then coordinator, then viewer. */
  readonly role: StaffRole;
  readonly isAdmin: boolean;
  /** The districts the user may see (rules/staff-scope.ts); applied by every staff route. */
  readonly scope: StaffScope;
  /** Their district ids, as the token carried them (none: every district). */
  readonly districtIds: readonly string[];
}

/**
 * What a route needs: `read` any role; `review` (status changes) an admin or a
 * coordinator; `admin` (erasure, staff management) an admin.
 */
export type StaffNeed = 'read' | 'review' | 'admin';

/**
 * API Gateway's JWT authorizer has verified the token; this reads who it is. HTTP APIs
 * pass an array claim as a string such as "[admin viewer]", so both forms are read.
 */
function readGroups(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.map(String);
  if (typeof claim !== 'string') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/**
 * The signed-in staff member. Refused (403) when in no staff group, when the route needs
 * more than their role gives, and when a coordinator's token names no district or one
 * that is not a district: a misconfigured account sees nothing rather than everything.
 */
export function requireStaff(event: APIGatewayProxyEventV2WithJWTAuthorizer, need: StaffNeed = 'read'): Staff {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') throw new AppError('UNAUTHORIZED');
  const groups = readGroups(claims['cognito:groups']).filter((g): g is StaffRole =>
    (staffRoles as readonly string[]).includes(g),
  );
  const role = staffRoles.find((r) => groups.includes(r));
  if (!role) throw new AppError('FORBIDDEN');
  const claim = claims[districtsClaim];
  const districtIds = role === 'admin' ? [] : parseDistrictIds(typeof claim === 'string' ? claim : '');
  const scope = districtIds && scopeOf(role, districtIds);
  if (!districtIds || !scope) throw new AppError('FORBIDDEN');
  if (need === 'admin' && role !== 'admin') throw new AppError('FORBIDDEN');
  if (need === 'review' && role === 'viewer') throw new AppError('FORBIDDEN');
  return {
    sub: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    groups,
    role,
    isAdmin: role === 'admin',
    scope,
    districtIds,
  };
}
