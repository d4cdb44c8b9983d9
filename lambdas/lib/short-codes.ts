import { randomInt } from 'node:crypto';
import { CODE_ALPHABET } from '../../rules/attribution';

/** `length` characters of CODE_ALPHABET, each from a cryptographic source (campaign and referral codes). */
export function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}
