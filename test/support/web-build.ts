import { join } from 'node:path';

/** The SPA built as for a deployment into `outDir` (the browser tier serves it: LOCAL_WEB_DIST). */
export async function buildWeb(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: join(import.meta.dirname, '../../web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}
