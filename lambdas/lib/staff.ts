import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { AppError } from './http';

const staffGroups = ['admin', 'viewer'] as const;
type StaffGroup = (typeof staffGroups)[number];

export interface Staff {
  readonly sub: string;
  readonly email: string;
  readonly groups: readonly StaffGroup[];
  readonly isAdmin: boolean;
}

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

/** The signed-in staff member; a user in neither group is refused (403). */
export function requireStaff(event: APIGatewayProxyEventV2WithJWTAuthorizer, need: 'read' | 'write' = 'read'): Staff {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') throw new AppError('UNAUTHORIZED');
  const groups = readGroups(claims['cognito:groups']).filter((g): g is StaffGroup =>
    (staffGroups as readonly string[]).includes(g),
  );
  if (groups.length === 0) throw new AppError('FORBIDDEN');
  const isAdmin = groups.includes('admin');
  if (need === 'write' && !isAdmin) throw new AppError('FORBIDDEN');
  return { sub: claims.sub, email: typeof claims.email === 'string' ? claims.email : '', groups, isAdmin };
}
