/**
 * The handlers' clock. In local mode it can be moved forward (POST /dev/clock) so that
 * tests see a code expire without waiting; deployed bundles replace
 * `process.env.APP_MODE` with 'aws' at build time, which removes that branch.
 */
export function systemClock(): () => Date {
  if (process.env.APP_MODE === 'local') {
    return () => new Date(Date.now() + Number(process.env.LOCAL_CLOCK_OFFSET_MS ?? 0));
  }
  return () => new Date();
}
