import { describe, expect, it } from 'vitest';
import { formatMemberNumber, isMemberNumber, parseMemberNumber } from './member-number';

describe('member numbers', () => {
  it('carry the year of the first approval in IST and the sequence, six digits at least', () => {
    expect(formatMemberNumber(123, new Date('2026-06-01T10:00:00Z'))).toBe('TNSW-2026-000123');
    // 31 December 19:00 UTC is already 1 January in Tamil Nadu.
    expect(formatMemberNumber(1, new Date('2026-12-31T19:00:00Z'))).toBe('TNSW-2027-000001');
    expect(formatMemberNumber(1_000_000, new Date('2031-01-05T00:00:00Z'))).toBe('TNSW-2031-1000000');
    expect(() => formatMemberNumber(0, new Date())).toThrow(RangeError);
    expect(() => formatMemberNumber(1.5, new Date())).toThrow(RangeError);
  });

  it('parse back, one spelling per number', () => {
    expect(parseMemberNumber('TNSW-2026-000123')).toEqual({ year: 2026, sequence: 123 });
    expect(parseMemberNumber('TNSW-2031-1000000')).toEqual({ year: 2031, sequence: 1_000_000 });
    for (const bad of [
      'TNSW-2026-123',
      'TNSW-2026-0000123',
      'TNSW-2026-000000',
      'tnsw-2026-000123',
      'X-2026-000123',
      7,
    ]) {
      expect(isMemberNumber(bad)).toBe(false);
    }
  });
});
