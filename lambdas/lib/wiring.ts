// Every handler module exports `makeHandler(deps)`, which tests call with their own
// dependencies, and `handler`, the same function wired from the environment on its first
// invocation rather than at import. Importing a module therefore reads no variable and
// builds no client: a test imports it without stubbing an environment, and a cold start
// pays only for evaluating the code. A configuration error (a variable the function was
// not given) fails that first invocation, loudly, every time until it is fixed.

/** A handler wired on first use, with `wire()` to build its dependencies now. */
export type Wired<A extends unknown[], R> = ((...args: A) => R) & {
  /**
   * Builds the dependencies now, once (later calls do nothing). The cold-start bench
   * (bench/parts/lambda.ts) and the grants test call it to count and check the wiring
   * with exactly the environment a deployed function has.
   */
  readonly wire: () => void;
};

export function wiredOnFirstCall<A extends unknown[], R>(wire: () => (...args: A) => R): Wired<A, R> {
  let handler: ((...args: A) => R) | undefined;
  const built = () => (handler ??= wire());
  return Object.assign((...args: A) => built()(...args), { wire: () => void built() });
}
