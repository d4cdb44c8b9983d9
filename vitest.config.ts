import { configDefaults, defineConfig } from 'vitest/config';

/**
 * expect.poll's default wait is 1 s: on a CI machine with two cores running two tiers side
 * by side, a page's re-render or a stream's consumer took longer than that, and a poll
 * that would have passed failed (2026-11-28's CI: the staff search's rows). A poll still
 * fails when the awaited state never comes, only later; a test that needs longer says so.
 */
const loadedMachinePoll = { timeout: 15_000, interval: 100 };

const unit = {
  include: [
    'rules/**/*.test.ts',
    'contracts/**/*.test.ts',
    'lambdas/**/*.test.ts',
    'local/**/*.test.ts',
    'web/src/**/*.test.{ts,tsx}',
    'test/support/**/*.test.ts',
    'ops/**/*.test.ts',
  ],
  environment: 'node',
  // The default 5 s: the start-up test that loads the staff area's chunk took 4.7 s
  // beside the other tiers on two cores.
  testTimeout: 20_000,
};
/**
 * Unit files that mock a module (vi.mock of aws-amplify, Powertools' metrics or tracer)
 * or change a module's state for their own tests: in the shared module graph they broke
 * other files or were broken by them, so they run with modules of their own.
 */
const ownModuleFiles = [
  'lambdas/lib/metrics.test.ts',
  'lambdas/lib/tracing.test.ts',
  'web/src/features/staff-auth/components/auth-gate.test.tsx',
  'web/src/features/staff-auth/components/sign-in-form.test.tsx',
];

// Four tiers (the unit tier as two projects), one runner. `npm test` runs them all; `npm run test:<tier>` runs one.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...unit,
          name: 'unit',
          exclude: [...configDefaults.exclude, ...ownModuleFiles],
          // One module graph for every file: importing each file's modules anew took 80 of
          // the tier's 180 CPU seconds (2026-11-28). Each file still gets its own
          // environment; the files whose mocks replace a module for everyone run apart.
          isolate: false,
        },
      },
      { test: { ...unit, name: 'unit-isolated', include: ownModuleFiles } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // The log-leak check and the tier's servers: every line a handler writes is
          // captured (setupFiles) and scanned when the run ends, after the servers stop
          // (teardowns run in reverse order).
          globalSetup: ['test/support/log-capture-setup.ts', 'test/support/integration-setup.ts'],
          setupFiles: ['test/support/log-capture.ts'],
          // The local adapter stops a handler at this many seconds instead of Lambda's 10:
          // a loaded CI machine runs handlers several times slower (local/api-adapter.ts).
          env: { LOCAL_FUNCTION_TIMEOUT_SECONDS: '30' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: loadedMachinePoll },
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/e2e-setup.ts'],
          env: { LOCAL_FUNCTION_TIMEOUT_SECONDS: '30' },
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          expect: { poll: loadedMachinePoll },
        },
      },
    ],
  },
});
