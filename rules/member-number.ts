import { istDate } from './ist';

// A member's number (issue 20): `TNSW-<year>-<sequence>`, e.g. `TNSW-2026-000123`. The
// sequence is the stage's one counter, drawn on an application's first approval
// (lambdas/adapters/member-numbers.ts); the year is that approval's year in IST, so it
// tells when the member joined and never restarts the sequence. Six digits at least: a
// 1,000,000th member reads `TNSW-2031-1000000`, still in order by its sequence.

export const MEMBER_NUMBER_PREFIX = 'TNSW';
const SEQUENCE_DIGITS = 6;

const memberNumberPattern = new RegExp(`^${MEMBER_NUMBER_PREFIX}-(\\d{4})-(\\d{${SEQUENCE_DIGITS},})$`);

/** The number of the `sequence`th member, first approved at `approvedAt`. */
export function formatMemberNumber(sequence: number, approvedAt: Date): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError('A member sequence is a positive integer');
  return `${MEMBER_NUMBER_PREFIX}-${istDate(approvedAt).year}-${String(sequence).padStart(SEQUENCE_DIGITS, '0')}`;
}

/** The year and sequence of a well-formed member number; undefined for anything else. */
export function parseMemberNumber(value: unknown): { year: number; sequence: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = memberNumberPattern.exec(value);
  if (!m) return undefined;
  const sequence = Number(m[2]);
  // One spelling per number: no leading zeros beyond the padding.
  if (!Number.isSafeInteger(sequence) || sequence < 1 || String(sequence).padStart(SEQUENCE_DIGITS, '0') !== m[2]) {
    return undefined;
  }
  return { year: Number(m[1]), sequence };
}

export const isMemberNumber = (value: unknown): value is string => parseMemberNumber(value) !== undefined;
