import type { TFunction } from 'i18next';
import type { ErrorCode } from '../../../rules/errors';

/**
 * The visitor's message for an API error code; an unknown code reads as a generic failure.
 * Looked up in the loaded strings (every language has one per code of rules/errors.ts, a
 * test says so), not in the catalogue itself: the English catalogue is not in a Tamil
 * visitor's first view. Codes are capitals and underscores; anything else is unknown.
 */
export function errorText(t: TFunction, code: string): string {
  const key = `errors.${/^[A-Z][A-Z0-9_]*$/.test(code) ? (code as ErrorCode) : 'INTERNAL'}` as const;
  return t([key, 'errors.INTERNAL']);
}
