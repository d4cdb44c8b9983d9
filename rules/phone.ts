// Indian mobile numbering: 10 digits, first digit 6-9. Stored with the 91 prefix.
const COUNTRY_PREFIX = '91';

const MOBILE = /^[6-9]\d{9}$/;

/** Keeps digits only and cuts to 10, as the inputs do while typing. */
export function sanitizeMobileInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 10);
}

export function isValidMobile(tenDigits: string): boolean {
  return MOBILE.test(tenDigits);
}

/**
 * What is wrong with a mobile number, as an error code: not ten digits, or ten digits that
 * do not start as an Indian mobile number does (6, 7, 8 or 9). Undefined when it is valid.
 */
export function mobileProblem(tenDigits: string): 'INVALID_PHONE' | 'INVALID_PHONE_START' | undefined {
  if (!/^\d{10}$/.test(tenDigits)) return 'INVALID_PHONE';
  return MOBILE.test(tenDigits) ? undefined : 'INVALID_PHONE_START';
}

/** '9876543210' -> '919876543210'. Accepts an already prefixed 12-digit number. */
export function toStoredPhone(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith(COUNTRY_PREFIX)) return digits;
  return COUNTRY_PREFIX + digits;
}

/** For logs: '919876543210' -> '91XXXXXX3210'. Never log a number any other way. */
export function maskPhone(number: string): string {
  const stored = toStoredPhone(number);
  if (stored.length < 6) return 'XXXX';
  return `${stored.slice(0, 2)}${'X'.repeat(stored.length - 6)}${stored.slice(-4)}`;
}
