import type { TFunction } from 'i18next';
import { type ErrorCode, errorMessages } from '../../../rules/errors';

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorMessages, code);
}

/** The visitor's message for an API error code; an unknown code reads as a generic failure. */
export function errorText(t: TFunction, code: string): string {
  return t(`errors.${isErrorCode(code) ? code : 'INTERNAL'}`);
}
