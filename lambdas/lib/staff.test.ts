import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { districtsToRead, inScope, parseDistrictIds, scopeLabel } from '../../rules/staff-scope';
import { requireStaff, type StaffNeed } from './staff';

const event = (claims: Record<string, unknown>) =>
  ({
    requestContext: { authorizer: { jwt: { claims: { sub: 'user-1', email: 'x@example.org', ...claims } } } },
  }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
const refused = (claims: Record<string, unknown>, need: StaffNeed = 'read') => {
  try {
    requireStaff(event(claims), need);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('who a staff token is, and what it may see (issue 17)', () => {
  it('gives an admin every district, whatever districts their token names', () => {
    const staff = requireStaff(event({ 'cognito:groups': '[admin]', 'custom:districts': 'chennai' }), 'admin');
    expect(staff).toMatchObject({ role: 'admin', isAdmin: true, scope: {}, districtIds: [] });
  });

  it('scopes a coordinator to their districts, by the names applications store', () => {
    const staff = requireStaff(
      event({ 'cognito:groups': '[coordinator]', 'custom:districts': 'tiruvallur, Chennai' }),
      'review',
    );
    expect(staff.role).toBe('coordinator');
    expect(staff.districtIds).toEqual(['chennai', 'tiruvallur']);
    expect(staff.scope.districts).toEqual(['Chennai', 'Tiruvallur']);
  });

  it('takes the strongest group a user is in', () => {
    expect(
      requireStaff(event({ 'cognito:groups': ['viewer', 'coordinator'], 'custom:districts': 'madurai' })).role,
    ).toBe('coordinator');
  });

  it('gives a viewer without districts every district, and one with districts only those', () => {
    expect(requireStaff(event({ 'cognito:groups': '[viewer]' })).scope).toEqual({});
    expect(requireStaff(event({ 'cognito:groups': '[viewer]', 'custom:districts': 'madurai' })).scope).toEqual({
      districts: ['Madurai'],
    });
  });

  it('refuses a coordinator with no district or a district that is none, rather than show everything', () => {
    expect(refused({ 'cognito:groups': '[coordinator]' })).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[coordinator]', 'custom:districts': '' })).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[coordinator]', 'custom:districts': 'chennai,atlantis' })).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[viewer]', 'custom:districts': 'atlantis' })).toBe('FORBIDDEN');
  });

  it('lets a coordinator review but not erase, and a viewer only read', () => {
    const coordinator = { 'cognito:groups': '[coordinator]', 'custom:districts': 'chennai' };
    expect(refused(coordinator, 'review')).toBeUndefined();
    expect(refused(coordinator, 'admin')).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[viewer]' }, 'review')).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[somebody]' })).toBe('FORBIDDEN');
    expect(refused({ 'cognito:groups': '[admin]', sub: undefined })).toBe('UNAUTHORIZED');
  });
});

describe('the scope applied to a query', () => {
  const chennai = { districts: ['Chennai', 'Tiruvallur'] };
  it('reads the scope when nothing is asked, what is asked within it, and nothing outside it', () => {
    expect(districtsToRead(chennai, [])).toEqual(['Chennai', 'Tiruvallur']);
    expect(districtsToRead(chennai, ['Tiruvallur', 'Madurai'])).toEqual(['Tiruvallur']);
    expect(districtsToRead(chennai, ['Madurai'])).toBeUndefined();
    expect(districtsToRead({}, [])).toEqual([]);
    expect(districtsToRead({}, ['Madurai'])).toEqual(['Madurai']);
  });

  it('keeps an application of an unknown district from a scoped user', () => {
    expect(inScope(chennai, 'Chennai')).toBe(true);
    expect(inScope(chennai, 'Madurai')).toBe(false);
    expect(inScope(chennai, undefined)).toBe(false);
    expect(inScope({}, undefined)).toBe(true);
  });

  it('names the scope in either language, and reads district ids once each, in order', () => {
    expect(scopeLabel(chennai, 'en')).toBe('Chennai, Tiruvallur');
    expect(scopeLabel(chennai, 'ta')).toMatch(/^[\u0B80-\u0BFF ]+, [\u0B80-\u0BFF ]+$/);
    expect(scopeLabel({}, 'en')).toBeUndefined();
    expect(parseDistrictIds('tiruvallur,chennai,chennai')).toEqual(['chennai', 'tiruvallur']);
    expect(parseDistrictIds('')).toEqual([]);
  });
});
