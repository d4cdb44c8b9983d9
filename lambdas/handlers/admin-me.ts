import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { httpHandler, json } from '../lib/http';
import { requireStaff } from '../lib/staff';
import { wiredOnFirstCall } from '../lib/wiring';

/** Who is signed in, with which role and districts (none: every district): the staff area's first call. It needs nothing wired. */
export function makeHandler() {
  return httpHandler<APIGatewayProxyEventV2WithJWTAuthorizer>(async (event) => {
    const staff = requireStaff(event);
    return json(200, { email: staff.email, groups: staff.groups, role: staff.role, districts: staff.districtIds });
  });
}

export const handler = wiredOnFirstCall(makeHandler);
