// What every operator command shares: run `main` when the file is the entry point (not
// when a test imports it), exit with its code, and report a failure in one line.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';

// Node 20 is supported; the SDK's notice about its future Node 22 requirement is in the README.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export function runCommand(moduleUrl: string, main: () => Promise<number>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      process.stderr.write(`${error.name}: ${error.message}\n`);
      process.exit(1);
    },
  );
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * An operator command's arguments: `options` parsed from `argv`, the first positional as
 * `command` when `positional` is set, then checked by `schema`. `--help` or arguments that
 * do not pass print the usage (after what was wrong) and answer the exit code instead: 0
 * for help, 2 for a mistake.
 */
export function parseCommand<T>(
  schema: z.ZodType<T>,
  spec: { options: Options; usage: string; argv?: string[]; positional?: boolean },
): { args: T } | { exit: number } {
  const { values, positionals } = parseArgs({
    args: spec.argv ?? process.argv.slice(2),
    options: { ...spec.options, help: { type: 'boolean' } },
    allowPositionals: spec.positional ?? false,
  });
  const input = spec.positional ? { ...values, command: positionals[0] } : values;
  const parsed = schema.safeParse(input);
  if (values.help || !parsed.success) {
    const problem = parsed.success || values.help ? '' : `${z.prettifyError(parsed.error)}\n\n`;
    process.stderr.write(`${problem}${spec.usage}\n`);
    return { exit: values.help ? 0 : 2 };
  }
  return { args: parsed.data };
}
