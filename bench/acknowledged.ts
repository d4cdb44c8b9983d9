// Budgets the product misses today, on purpose and in writing: each with why and what
// would fix it (the README's Performance section says the same). A missed figure listed
// here is still reported as missed (ok: false in .bench/results.json), but does not fail
// `npm run bench`; any other miss does. Remove an entry once its budget is met.
export interface AcknowledgedMiss {
  readonly figures: RegExp;
  readonly why: string;
}

// None today: issue 16 met the Lambda import budgets (README, Performance).
const acknowledgedMisses: readonly AcknowledgedMiss[] = [];

export function acknowledgement(name: string): AcknowledgedMiss | undefined {
  return acknowledgedMisses.find((a) => a.figures.test(name));
}
