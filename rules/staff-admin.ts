import * as v from 'valibot';
import { crossCheck, isEmail, requestObject } from './schema';
import { parseDistrictIds, type StaffRole, staffRoles } from './staff-scope';

// Staff managed from the staff area (issue 17): the requests an admin sends and what the
// list answers. Shared by the Lambda routes, `ops/staff.ts` and the SPA, so that one rule
// (a coordinator has at least one district; every district is a real one) holds on all
// three. Field errors carry stable codes: the SPA shows them next to their field.

const districtIdsSchema = v.pipe(
  v.array(v.pipe(v.string('INVALID'), v.maxLength(40, 'INVALID')), 'INVALID'),
  v.maxLength(38, 'INVALID'),
  v.check((ids) => parseDistrictIds(ids.join(',')) !== undefined, 'INVALID'),
  v.transform((ids) => parseDistrictIds(ids.join(','))!),
);

/** A role and its districts: a coordinator needs at least one; an admin's are ignored (every district). */
const assignmentEntries = {
  role: v.picklist(staffRoles, 'INVALID'),
  districts: v.optional(districtIdsSchema, () => []),
};

interface Assigned {
  role: StaffRole;
  districts: string[];
}

const assignmentCheck = <T extends Assigned>() =>
  crossCheck<T>((value, addIssue) => {
    if (value.role === 'coordinator' && value.districts.length === 0) addIssue('districts', 'REQUIRED');
  });

/** An admin's districts are none: an admin sees every district whatever the attribute says. */
const normalised = <T extends Assigned>() =>
  v.transform((value: T): T => ({ ...value, districts: value.role === 'admin' ? [] : value.districts }));

export const staffAssignmentSchema = v.pipe(requestObject(assignmentEntries), assignmentCheck(), normalised());
export type StaffAssignment = v.InferOutput<typeof staffAssignmentSchema>;

export const staffInviteSchema = v.pipe(
  requestObject({
    email: v.pipe(
      v.string('REQUIRED'),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(254, 'INVALID'),
      v.check(isEmail, 'INVALID'),
    ),
    ...assignmentEntries,
  }),
  assignmentCheck(),
  normalised(),
);
export type StaffInvite = v.InferOutput<typeof staffInviteSchema>;

/** Cognito's user status, as it says it (CONFIRMED, FORCE_CHANGE_PASSWORD, ...). */
const staffMemberSchema = v.object({
  /** The user's id, stable until their authenticator is reset (the user is then made again). */
  sub: v.string(),
  email: v.string(),
  /** The strongest of their groups; null when in none (they cannot sign in to the staff area). */
  role: v.nullable(v.picklist(staffRoles)),
  districts: v.array(v.string()),
  enabled: v.boolean(),
  status: v.string(),
  /** An authenticator is enrolled. */
  mfa: v.boolean(),
  /** ISO time of the last successful sign-in; null where Cognito does not keep it (cognito-local, the Essentials plan). */
  lastSignIn: v.nullable(v.string()),
});
export type StaffMember = v.InferOutput<typeof staffMemberSchema>;

export const staffListResponseSchema = v.object({ items: v.array(staffMemberSchema) });
export type StaffListResponse = v.InferOutput<typeof staffListResponseSchema>;

/** What an invitation or an authenticator reset answers; the password only locally (Cognito e-mails it in AWS). */
export const staffInviteResponseSchema = v.object({
  member: staffMemberSchema,
  temporaryPassword: v.optional(v.string()),
});
export type StaffInviteResponse = v.InferOutput<typeof staffInviteResponseSchema>;

/** The actions on one staff member, as the route's last segment says them. */
export type StaffAction = 'assign' | 'disable' | 'enable' | 'reset-mfa';
