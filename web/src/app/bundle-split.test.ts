// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// nivo (the Reports page's charts) must reach only the Reports chunk: a production
// build into a temporary folder, then the public page's entry script and every chunk
// it imports statically, and the /admin chunk, are searched for nivo's code.

const outDir = mkdtempSync(join(tmpdir(), 'web-bundle-'));
const NIVO_MARKERS = [/@nivo\//, /nivo/i, /react-spring|useSpring/];

function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js)["']/g)].map((m) => m[1]!);
}

/** The entry chunk and everything it loads before the page runs. */
function entryClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(outDir, 'assets', file), 'utf8');
    for (const next of staticImports(code)) visit(next.replace(/^\.\//, ''));
  };
  visit(entry);
  return [...seen];
}

beforeAll(async () => {
  const { build } = await import('vite');
  await build({
    configFile: resolve(import.meta.dirname, '../../vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the public bundle', () => {
  it('has no nivo code in the entry script or its static imports', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const entry = /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeTruthy();
    const files = entryClosure(entry!);
    for (const file of files) {
      const code = readFileSync(join(outDir, 'assets', file), 'utf8');
      for (const marker of NIVO_MARKERS) expect(marker.test(code), `${file} matches ${marker}`).toBe(false);
    }
  });

  it('keeps nivo out of the /admin (dashboard) chunk and in the Reports chunk', async () => {
    const { readdirSync } = await import('node:fs');
    const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    const admin = assets.find((f) => /^admin-(?!reports)/.test(f));
    const reports = assets.find((f) => f.startsWith('admin-reports-'));
    expect(admin && reports).toBeTruthy();
    expect(NIVO_MARKERS[1]!.test(readFileSync(join(outDir, 'assets', admin!), 'utf8'))).toBe(false);
    expect(NIVO_MARKERS[1]!.test(readFileSync(join(outDir, 'assets', reports!), 'utf8'))).toBe(true);
  });

  it('loads the QR code library only with the MFA enrolment screen: not on the public page, not in the /admin chunk', async () => {
    const { readdirSync } = await import('node:fs');
    const QR_MARKER = /toSJISFunc/;
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const entry = /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(html)![1]!;
    for (const file of entryClosure(entry)) {
      expect(QR_MARKER.test(readFileSync(join(outDir, 'assets', file), 'utf8')), file).toBe(false);
    }
    const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    const admin = assets.find((f) => /^admin-(?!reports)/.test(f))!;
    expect(QR_MARKER.test(readFileSync(join(outDir, 'assets', admin), 'utf8'))).toBe(false);
    const qr = assets.filter((f) => QR_MARKER.test(readFileSync(join(outDir, 'assets', f), 'utf8')));
    expect(qr).toHaveLength(1);
    // The /admin chunk imports it lazily, by name.
    expect(readFileSync(join(outDir, 'assets', admin), 'utf8')).toContain(qr[0]);
  });
});
