// Timing the rollups' writers and the jobs that fence them agree on: the CDK app sets the
// stream consumer's timeout from it (lib/functions.ts), the ageing function and the rebuild
// command wait by it. In contracts/ because a Lambda bundle must not reach into the CDK
// app's lib/ (eslint.config.js).

/** The applications stream consumer's timeout (lib/functions.ts, `backgroundFunctions.applicationsStream`). */
export const applicationsStreamTimeoutSeconds = 60;

/**
 * How long a change of the rollups' META (ageing marker, generations) waits before it
 * relies on every writer having seen it: longer than a stream consumer invocation may
 * run, plus the birthday index's propagation. See lambdas/lib/rollups-ageing.ts.
 */
export const rollupsFenceSeconds = applicationsStreamTimeoutSeconds + 30;
