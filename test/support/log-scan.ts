// Finds personal data and secrets in captured logs. Known values: full phone numbers
// (with or without the 91 prefix), OTP codes, tokens and secrets. With `patterns`, also
// any full Indian mobile number and any JWT, known or not (numbers seeded straight into
// a table, tokens minted by a test). Masked numbers (91XXXXXX1234) never match.
// Messages name what leaked and where, never the value.
export interface Secrets {
  readonly phones: readonly string[];
  readonly codes: readonly string[];
  /** Verification tokens, bearer tokens (JWTs), captcha tokens: matched as they are. */
  readonly tokens?: readonly string[];
  /** Credentials and keys: matched as they are. */
  readonly secrets?: readonly string[];
}

export interface ScanOptions {
  /** Flag every full mobile number, every JWT-shaped string and every card link or card token too. */
  readonly patterns?: boolean;
}

const MIN_SECRET_LENGTH = 8;
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/;
const MOBILE = /^(?:91)?[6-9]\d{9}$/;
/**
 * A member card's link, `<serial>.<mac>` (rules/member-card.ts: 16 characters of the codes'
 * alphabet, a dot, 22 of base64url), wherever it stands (`/card#…`, `/card?#…`, a JSON field):
 * whoever holds it opens the card.
 */
const CARD_LINK = /(?<![\w-])[a-hjkmnp-z2-9]{16}\.[\w-]{22}(?![\w-])/;
/** A card's QR token: base64url of `{"v":1,…` claims, a dot, a 64-byte signature (86 characters). */
const CARD_TOKEN = /eyJ2Ijox[\w-]{16,}\.[\w-]{86}/;
/** A full number standing alone: a digit run inside a UUID segment (`-7456382270de`) is not one. */
const MOBILE_IN_TEXT = /(?<![\dA-Za-z])(?:91)?[6-9]\d{9}(?![\dA-Za-z])/;

/** '9876543210', '919876543210' or '+91 98765 43210' -> '9876543210'; anything else -> undefined. */
export function tenDigits(phone: string): string | undefined {
  const digits = phone.replace(/[\s+-]/g, '');
  if (!MOBILE.test(digits)) return undefined;
  return digits.slice(-10);
}

export function findLeaks(log: string, secrets: Secrets, options: ScanOptions = {}): string[] {
  return findLeaksInLines(log.split('\n'), secrets, options).map(({ what, line }) => `${what} on log line ${line}`);
}

const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Each kind of leak once, at its first line (1-based). */
export function findLeaksInLines(
  lines: readonly string[],
  secrets: Secrets,
  options: ScanOptions = {},
): { what: string; line: number }[] {
  // Digit runs are compared whole, so a code inside a longer number does not match.
  const digitRuns = new Map<string, string>();
  for (const phone of secrets.phones) {
    const ten = tenDigits(phone) ?? phone.replace(/^91/, '');
    digitRuns.set(ten, 'phone number');
    digitRuns.set(`91${ten}`, 'phone number');
  }
  for (const code of secrets.codes) if (/^\d+$/.test(code)) digitRuns.set(code, 'code');
  const strings = [
    ...(secrets.tokens ?? []).map((value) => ({ what: 'token', value })),
    ...(secrets.secrets ?? []).map((value) => ({ what: 'secret', value })),
  ].filter((s) => s.value.length >= MIN_SECRET_LENGTH);

  const found = new Map<string, number>();
  const note = (what: string, index: number) => {
    if (!found.has(what)) found.set(what, index + 1);
  };
  lines.forEach((line, index) => {
    // Request and application ids are random hex: "d637317a" holds the run 637317, which
    // one of the suite's thousands of codes will sooner or later equal.
    for (const run of line.replace(uuid, '').match(/\d+/g) ?? []) {
      const what = digitRuns.get(run);
      if (what) note(what, index);
    }
    if (options.patterns && MOBILE_IN_TEXT.test(line) && !found.has('phone number')) {
      note('phone number (not among the known ones)', index);
    }
    for (const { what, value } of strings) if (line.includes(value)) note(what, index);
    if (options.patterns && JWT.test(line)) note('JWT', index);
    if (options.patterns && CARD_LINK.test(line)) note('card link', index);
    if (options.patterns && CARD_TOKEN.test(line)) note('card token', index);
  });
  return [...found].map(([what, line]) => ({ what, line }));
}
