// The staff pool's password policy (lib/constructs/staff-auth.ts): 12 characters or
// more with a lowercase and an uppercase letter, a digit and a symbol. Checked here so
// that the new-password form can explain it before Cognito refuses.

export const passwordRules = ['length', 'lower', 'upper', 'digit', 'symbol'] as const;
export type PasswordRule = (typeof passwordRules)[number];

const tests: Record<PasswordRule, (password: string) => boolean> = {
  length: (p) => p.length >= 12,
  lower: (p) => /[a-z]/.test(p),
  upper: (p) => /[A-Z]/.test(p),
  digit: (p) => /[0-9]/.test(p),
  symbol: (p) => /[^A-Za-z0-9\s]/.test(p),
};

/** Each rule with whether the password meets it. */
export function checkPassword(password: string): Record<PasswordRule, boolean> {
  return Object.fromEntries(passwordRules.map((rule) => [rule, tests[rule](password)])) as Record<
    PasswordRule,
    boolean
  >;
}

export function meetsPolicy(password: string): boolean {
  return passwordRules.every((rule) => tests[rule](password));
}
