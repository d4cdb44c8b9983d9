// Part 1 of `npm run bench` (issue 7): what a visitor's phone downloads and how Lighthouse
// rates the public page. Measured: about 2 minutes on 2 cores (build, 6 Lighthouse runs).
//
// - A production build of the SPA is served as CloudFront serves it: gzip-compressed
//   files, the SPA fallback, and /api, /dev, /config.json passed to the local API
//   adapter (the whole local stack runs, API only). Two servers: one whose config.json
//   says English, one Tamil, as two stages would.
// - `/` in Chromium: every script and stylesheet the first view loads (until the network
//   is idle), each gzip-compressed at level 9, summed. The captcha script is left out:
//   it is Google's in production (here a stand-in), not ours to size.
// - `/admin`: the scripts it loads beyond those of `/` (the staff chunk and what it
//   shares). `/admin/reports`: its chunk and the chunks only it needs, from the build's
//   import graph (opening it in the browser needs a signed-in staff member).
// - Reference: React + ReactDOM alone, rendering one element, bundled and minified by
//   esbuild for production: the floor any React page pays.
// - Lighthouse 12 (mobile profile, simulated slow 4G and 4x CPU slowdown), on `/` in
//   English and in Tamil, 3 runs each; the median score of each category.
// KB here are 1,024 bytes.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { localConfigSchema } from '../../local/config';
import { startLocalStack } from '../../local/stack';
import { atLeast, atMost, median, report, runPart, say } from '../figures';

const root = resolve(import.meta.dirname, '../..');
const dist = resolve(root, 'web/dist');
const assets = join(dist, 'assets');
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const KB = 1024;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The built SPA as CloudFront serves it (compressed, cached assets, SPA fallback); the rest to the API. */
function serveDist(apiUrl: string, language: 'en' | 'ta'): Promise<{ url: string; server: Server }> {
  const api = new URL(apiUrl);
  const proxy = (req: IncomingMessage, res: ServerResponse, rewrite?: (body: string) => string) => {
    const upstream = request(
      { host: api.hostname, port: api.port, path: req.url, method: req.method, headers: { ...req.headers, host: api.host } },
      (answer) => {
        if (!rewrite) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = rewrite(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/config.json') {
      return proxy(req, res, (body) => JSON.stringify({ ...(JSON.parse(body) as object), defaultLanguage: language }));
    }
    if (path.startsWith('/api/') || path.startsWith('/dev/')) return proxy(req, res);
    const file = join(dist, path);
    const found = file.startsWith(dist) && path !== '/' && existsSync(file) && !file.endsWith('/');
    const served = found ? file : join(dist, 'index.html');
    const body = readFileSync(served);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && !/\.(woff2?|png)$/.test(served);
    res.writeHead(200, {
      'content-type': types[extname(served)] ?? 'application/octet-stream',
      'cache-control': served.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(gzip && { 'content-encoding': 'gzip', vary: 'accept-encoding' }),
    });
    res.end(gzip ? gzipSync(body, { level: 9 }) : body);
  });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://localhost:${port}`, server });
    });
  });
}

const gzipBytes = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Scripts and stylesheets (as /assets/ files) that a page loads until the network is idle. */
async function loadedAssets(url: string, storedLanguage?: 'en' | 'ta'): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    if (storedLanguage) {
      await context.addInitScript((language) => window.localStorage.setItem('app_language', language), storedLanguage);
    }
    const page = await context.newPage();
    const files = new Set<string>();
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/assets/') && /\.(js|css)$/.test(path)) files.add(path.slice('/assets/'.length));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForSelector('h1');
    return [...files];
  } finally {
    await browser.close();
  }
}

/** A chunk and the chunks it imports statically (what loading it costs). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(assets, file), 'utf8');
  for (const match of code.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)) staticClosure(match[1]!, seen);
  return seen;
}

/** React + ReactDOM rendering one element: the floor of any React page, gzip bytes. */
async function reactFloor(): Promise<number> {
  const result = await build({
    stdin: {
      contents: "import { createElement } from 'react'; import { createRoot } from 'react-dom/client'; createRoot(document.getElementById('root')).render(createElement('p', null, 'hello'));",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

interface Scores {
  performance: number;
  accessibility: number;
  'best-practices': number;
}

async function lighthouseScores(url: string): Promise<Scores> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned nothing');
    const { categories, audits } = result.lhr;
    const score = (id: keyof Scores) => Math.round((categories[id]?.score ?? 0) * 100);
    const scores = { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices') };
    // What cost points, so that a miss says why.
    for (const [id, category] of Object.entries(categories)) {
      if ((category.score ?? 0) < 1) {
        const failing = category.auditRefs
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9)
          .map((ref) => `${ref.id} (${audits[ref.id]?.displayValue ?? audits[ref.id]?.score})`);
        if (failing.length > 0) say(`  ${id} ${Math.round((category.score ?? 0) * 100)}: ${failing.join(', ')}`);
      }
    }
    return scores;
  } finally {
    chrome.kill();
  }
}

runPart('web', async (add) => {
  say('building the SPA for production');
  execFileSync(resolve(root, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  const floor = await reactFloor();
  add('web: React + ReactDOM floor JS', report(floor / KB, 'KB gzip'));

  const stack = await startLocalStack(localConfigSchema.parse({ LOCAL_PERSISTENCE: 'memory', LOCAL_WEB: 'false' }));
  const servers = await Promise.all([serveDist(stack.apiUrl, 'en'), serveDist(stack.apiUrl, 'ta')]);
  try {
    const [en, ta] = servers;
    const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gzipBytes(join(assets, f)), 0);
    const js = (files: Iterable<string>) => [...files].filter((f) => f.endsWith('.js'));
    const css = (files: Iterable<string>) => [...files].filter((f) => f.endsWith('.css'));

    const firstView: Record<'en' | 'ta', string[]> = {
      en: await loadedAssets(`${en.url}/`),
      ta: await loadedAssets(`${ta.url}/`),
    };
    for (const language of ['en', 'ta'] as const) {
      const files = firstView[language];
      say(`/ (${language}) loads ${files.join(', ')}`);
      add(`web: / JS (${language})`, atMost(sum(js(files)) / KB, 'KB gzip', 100, { reference: floor / KB }));
      add(`web: / CSS (${language})`, atMost(sum(css(files)) / KB, 'KB gzip', 15));
    }

    const home = new Set([...firstView.en, ...firstView.ta]);
    const admin = (await loadedAssets(`${en.url}/admin`)).filter((f) => !home.has(f));
    say(`/admin adds ${admin.join(', ')}`);
    add('web: /admin route chunks JS', report(sum(js(admin)) / KB, 'KB gzip', { reference: floor / KB }));
    add('web: /admin route chunks CSS', report(sum(css(admin)) / KB, 'KB gzip'));

    const reportsChunk = readdirSync(assets).find((f) => /^admin-reports-.*\.js$/.test(f));
    if (!reportsChunk) throw new Error('no admin-reports chunk in the build');
    const before = new Set([...home, ...admin].flatMap((f) => (f.endsWith('.js') ? [...staticClosure(f)] : [f])));
    const reports = [...staticClosure(reportsChunk)].filter((f) => !before.has(f));
    const reportsCss = readdirSync(assets).filter((f) => /^admin-reports-.*\.css$/.test(f));
    say(`/admin/reports adds ${[...reports, ...reportsCss].join(', ')}`);
    add('web: /admin/reports route chunks JS', report(sum(reports) / KB, 'KB gzip', { reference: floor / KB }));
    add('web: /admin/reports route chunks CSS', report(sum(reportsCss) / KB, 'KB gzip'));

    for (const [language, server] of [['en', en], ['ta', ta]] as const) {
      const runs: Scores[] = [];
      for (let i = 0; i < RUNS; i++) {
        runs.push(await lighthouseScores(`${server.url}/`));
        say(`Lighthouse / (${language}) run ${i + 1}: ${JSON.stringify(runs.at(-1))}`);
      }
      const med = (key: keyof Scores) => median(runs.map((r) => r[key]));
      add(`web: Lighthouse performance (${language})`, atLeast(med('performance'), 'score', 95));
      add(`web: Lighthouse accessibility (${language})`, atLeast(med('accessibility'), 'score', 100));
      add(`web: Lighthouse best practices (${language})`, atLeast(med('best-practices'), 'score', 95));
    }
  } finally {
    for (const { server } of servers) server.close();
    await stack.stop();
  }
});
