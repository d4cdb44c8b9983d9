/// <reference lib="dom" />
import { resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Campaign } from '../../rules/campaigns';
import { istDay } from '../../rules/ist';
import { freePort } from '../../local/ports';
import { launchChromium } from '../support/browser';
import { lookAtEveryWidth, openStaffPage, type StaffLanguage } from '../support/staff-browser';

// The Campaigns page (issue 19) in Chromium against `npm start`, its API answered by the
// browser (the campaigns server is built apart): every width in both languages. And the
// A4 poster made by the page's own module: a well-formed PDF whose page image holds the
// Tamil lines shaped by Chromium in the self-hosted Noto Sans Tamil (this machine has
// no Tamil font of its own, so a failed font shows as empty boxes). What the poster
// prints, rasterised by poppler and read back, is campaign-print.test.ts's (its PNG of
// the page, .test-artifacts/screenshots/campaign-poster-printed.png, is the one to look at).

const appUrl = inject('appUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

const day = (offset: number) => istDay(new Date(Date.now() + offset * 86_400_000));
const campaigns: Campaign[] = [
  {
    id: 'c1',
    code: 'abc234',
    name_en: 'Thiruvalluvar Government Arts College freshers drive',
    name_ta: 'திருவள்ளுவர் அரசு கலைக் கல்லூரி புதிய மாணவர் சேர்க்கைப் பரப்புரை',
    kind: 'college',
    district: 'Tiruvannamalai',
    constituency: 'Tiruvannamalai',
    starts_on: day(-3),
    ends_on: day(30),
    status: 'active',
    created_at: '2026-11-01T10:00:00.000Z',
  },
  {
    id: 'c2',
    code: 'pqr789',
    name_en: 'Online',
    name_ta: 'இணையம்',
    kind: 'online',
    starts_on: day(-3),
    ends_on: day(30),
    status: 'paused',
    created_at: '2026-11-01T10:00:00.000Z',
  },
];

describe('the Campaigns page', () => {
  for (const language of ['en', 'ta'] as const satisfies StaffLanguage[]) {
    it(`fits 360, 768 and 1280 px in ${language}`, async () => {
      const { page, context, s } = await openStaffPage(browser, {
        appUrl,
        language,
        viewport: { width: 1280, height: 800 },
        path: '/admin',
        heading: (t) => t.dashboard.title,
      });
      try {
        await context.route('**/api/admin/campaigns', (route) =>
          route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: campaigns }) }),
        );
        await page.getByRole('link', { name: s.nav.campaigns, exact: true }).click();
        await page.getByTestId('campaign-abc234').getByRole('img').waitFor();
        await lookAtEveryWidth(page, `campaigns-${language}`);
      } finally {
        await context.close();
      }
    });
  }
});

/** What the test calls of the page's poster and QR modules (typed here: they need Vite's types). */
interface PosterModules {
  readonly poster: { posterPdf(parts: unknown): Promise<Blob> };
  readonly qr: { qrMatrix(text: string): Promise<{ size: number; data: Uint8Array }> };
}

/** The objects of a PDF by number, and whether each xref offset points at its object. */
function readPdf(bytes: Buffer) {
  const text = bytes.toString('latin1');
  const startxref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
  const entries = [...text.slice(startxref).matchAll(/(\d{10}) 00000 n /g)].map((m) => Number(m[1]));
  const offsetsHold = entries.every((offset, i) => text.startsWith(`${i + 1} 0 obj`, offset));
  const image = /\/Width (\d+) \/Height (\d+) \/ColorSpace \/DeviceGray[^>]*\/Length (\d+) >>\nstream\n/.exec(text);
  if (!image) throw new Error('no image');
  const start = image.index + image[0].length;
  const compressed = bytes.subarray(start, start + Number(image[3]));
  const pixels = inflateSync(compressed);
  return { text, offsetsHold, width: Number(image[1]), height: Number(image[2]), pixels };
}

describe('the A4 poster', () => {
  // The page's own modules, as Vite's dev server serves them (the stack serves the built
  // SPA, whose modules have no names): a dev server of its own, with no API behind it.
  let dev: ViteDevServer;
  let devUrl: string;
  beforeAll(async () => {
    const { createServer } = await import('vite');
    const port = await freePort();
    dev = await createServer({
      configFile: resolve(import.meta.dirname, '../../web/vite.config.ts'),
      server: { port, strictPort: true, host: 'localhost' },
      logLevel: 'warn',
    });
    await dev.listen();
    devUrl = `http://localhost:${port}`;
  });
  afterAll(async () => {
    await dev?.close();
  });

  it('is a PDF whose page shows the Tamil and English lines, shaped, and the QR code', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(devUrl);
      // The page's own modules, as Vite serves them (an import inside evaluate would be the runner's).
      await page.addScriptTag({
        type: 'module',
        content:
          "import * as poster from '/src/features/staff-campaigns/utils/poster.ts';" +
          "import * as qr from '/src/lib/qr.ts';" +
          'window.posterModules = { poster, qr };',
      });
      await page.waitForFunction(() => 'posterModules' in window);
      const made = await page.evaluate(async (link) => {
        const { poster, qr } = (window as unknown as { posterModules: PosterModules }).posterModules;
        const matrix = await qr.qrMatrix(link);
        const parts = {
          matrix,
          link,
          title: 'Poster',
          ta: {
            wing: 'மாணவர் அணி',
            name: 'க்ஷேத்திரம் கொண்டாட்டம் ஸ்ரீ',
            invite: 'மாணவர் அணியில் சேர இந்தக் குறியீட்டை ஸ்கேன் செய்யுங்கள்',
            or: 'அல்லது இந்த இணைப்பைத் திறக்கவும்',
          },
          en: {
            wing: "Students' Wing",
            name: 'Kshetram celebration',
            invite: "Scan the code to join the Students' Wing",
            or: 'or open',
          },
        };
        const blob = await poster.posterPdf(parts);
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = '';
        for (const byte of bytes) binary += String.fromCharCode(byte);
        // Shaping, measured in the poster's own face: a conjunct and a two-part vowel sign
        // are not the sum of their letters drawn apart (unshaped text would be).
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = '700 40px "Canvas Noto Sans Tamil"';
        const width = (s: string) => context.measureText(s).width;
        return {
          pdf: btoa(binary),
          fontReady: document.fonts.check('700 40px "Canvas Noto Sans Tamil"', 'தமிழ்'),
          ksha: { together: width('க்ஷ'), apart: width('க்') + width('ஷ') },
          ko: { together: width('கொ'), apart: width('க') + width('ொ') },
          qr: { size: matrix.size, data: [...matrix.data] },
        };
      }, 'https://join.example.org/?c=abc234');
      expect(made.fontReady).toBe(true);
      expect(Math.abs(made.ksha.together - made.ksha.apart)).toBeGreaterThan(1);
      expect(Math.abs(made.ko.together - made.ko.apart)).toBeGreaterThan(1);

      const pdf = readPdf(Buffer.from(made.pdf, 'base64'));
      expect(pdf.text.startsWith('%PDF-1.4')).toBe(true);
      expect(pdf.offsetsHold).toBe(true);
      expect(pdf.text).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
      expect(pdf.pixels.length).toBe(pdf.width * pdf.height);
      // Ink in the top third (names) and below the code (the invitation and the link).
      const inkIn = (from: number, to: number) => {
        let ink = 0;
        for (let i = Math.floor(from * pdf.height) * pdf.width; i < Math.floor(to * pdf.height) * pdf.width; i += 1)
          if ((pdf.pixels[i] ?? 255) < 128) ink += 1;
        return ink;
      };
      expect(inkIn(0, 0.3)).toBeGreaterThan(10_000);
      expect(inkIn(0.7, 1)).toBeGreaterThan(10_000);
      // The QR code is vector: one rectangle a run of dark modules.
      expect((pdf.text.match(/ re\n/g) ?? []).length).toBeGreaterThan(made.qr.size);
    } finally {
      await page.close();
    }
  });
});
