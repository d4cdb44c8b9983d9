// Finds personal data in captured logs: full phone numbers (with or without the 91
// prefix) and OTP codes. Masked numbers (91XXXXXX1234) do not match.
export interface Secrets {
  readonly phones: readonly string[];
  readonly codes: readonly string[];
}

export function findLeaks(log: string, secrets: Secrets): string[] {
  const leaks: string[] = [];
  const lines = log.split('\n');
  const patterns = [
    ...secrets.phones.flatMap((p) => [p, p.replace(/^91/, '')]).map((p) => ({ what: 'phone number', value: p })),
    ...secrets.codes.map((c) => ({ what: 'code', value: c })),
  ];
  for (const { what, value } of patterns) {
    const re = new RegExp(`(?<!\\d)${value}(?!\\d)`);
    const line = lines.findIndex((l) => re.test(l));
    if (line >= 0) leaks.push(`${what} on log line ${line + 1}`);
  }
  return leaks;
}
