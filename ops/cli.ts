// What every operator command shares: run `main` when the file is the entry point (not
// when a test imports it), exit with its code, and report a failure in one line.

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
