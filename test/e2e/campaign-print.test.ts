/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { campaignLink } from '../../rules/campaigns';
import { campaignsEn } from '../../web/src/i18n/staff-campaigns-en';
import { ta } from '../../web/src/i18n/ta';
import { demoCampaigns } from '../../local/campaign-seed';
import { launchChromium, screenshotsDir } from '../support/browser';
import {
  decodeQr,
  type Grey,
  greyOfRgba,
  inkBox,
  inkDifference,
  inkLines,
  pdfPagePng,
  rasterisePdf,
} from '../support/pixels';
import { openStaffPage } from '../support/staff-browser';

// What a campaign's printed matter really holds (issue 19), read back by other programs
// than the ones that made it: the QR code the Campaigns page offers (SVG and PNG) and
// the A4 poster (PDF) are downloaded from the page as a staff member does, the images
// drawn by Chromium and the PDF rasterised by poppler's pdftoppm, and every code read by
// jsQR to the campaign's link. The poster's Tamil lines are compared, pixel by pixel,
// with the same lines drawn by Chromium in the self-hosted Noto Sans Tamil: boxes in
// place of letters (a font that failed) or letters left unshaped would not match.

const appUrl = inject('appUrl');
const campaign = demoCampaigns.find((c) => c.code === 'chenna')!;
const link = campaignLink(appUrl, campaign.code);
/** The poster's resolution: its text is an image of 300 dots an inch (poster.ts). */
const DPI = 300;
const px = (points: number) => (points * DPI) / 72;
/** The poster's Tamil lines that fit one line, and their size in points (poster.ts's layout). */
const tamilLines = [
  { text: ta.shell.wingName, size: 24 },
  { text: campaign.name_ta, size: 30 },
] as const;
/**
 * Below it, a line is the reference's drawing (measured: about 0.02, poppler's resampling
 * of the 300 dpi image); the same letters unshaped are another size altogether (1).
 */
const SAME_DRAWING = 0.1;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

/** Clicks the card's button and answers where the browser saved the file. */
async function download(page: Page, card: Locator, button: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return file.path();
}

/** The image file as Chromium draws it on a canvas `side` pixels square (0: its own size). */
async function drawnByChromium(page: Page, path: string, type: string, side = 0): Promise<Grey> {
  const drawn = await page.evaluate(
    async ({ base64, type, side }) => {
      const image = new Image();
      image.src = `data:${type};base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = side || image.naturalWidth;
      canvas.height = side || image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let binary = '';
      for (const byte of rgba) binary += String.fromCharCode(byte);
      return { width: canvas.width, height: canvas.height, rgba: btoa(binary) };
    },
    { base64: readFileSync(path).toString('base64'), type, side },
  );
  return greyOfRgba(drawn.width, drawn.height, Buffer.from(drawn.rgba, 'base64'));
}

/**
 * fontsource's bold Noto Sans Tamil faces (the files the app self-hosts), with every file
 * inlined: a blank page draws with them and with nothing of the app's.
 */
function referenceFontCss(): string {
  const dir = resolve(import.meta.dirname, '../../node_modules/@fontsource/noto-sans-tamil');
  return readFileSync(join(dir, '700.css'), 'utf8').replace(/url\(\.\/files\/([^)]+)\)/g, (_, file: string) => {
    const type = file.endsWith('.woff2') ? 'font/woff2' : 'font/woff';
    return `url(data:${type};base64,${readFileSync(join(dir, 'files', file)).toString('base64')})`;
  });
}

/**
 * The line as Chromium draws it in bold Noto Sans Tamil at `size` pixels, shaped; or, with
 * `unshaped`, each character drawn on its own after the one before, as a writer that
 * only looks glyphs up would set it.
 */
async function referenceLine(page: Page, text: string, size: number, unshaped = false): Promise<Grey> {
  const drawn = await page.evaluate(
    async ({ text, size, unshaped }) => {
      const font = `700 ${size}px "Noto Sans Tamil"`;
      await document.fonts.load(font, text);
      if (!document.fonts.check(font, text)) throw new Error('Noto Sans Tamil did not load');
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d')!;
      context.font = font;
      const parts = unshaped ? [...text] : [text];
      const width = parts.reduce((sum, part) => sum + context.measureText(part).width, 0);
      canvas.width = Math.ceil(width + size);
      canvas.height = Math.ceil(size * 2);
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#000';
      context.font = font;
      let x = size / 2;
      for (const part of parts) {
        context.fillText(part, x, size * 1.3);
        x += context.measureText(part).width;
      }
      const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let binary = '';
      for (const byte of rgba) binary += String.fromCharCode(byte);
      return { width: canvas.width, height: canvas.height, rgba: btoa(binary) };
    },
    { text, size, unshaped },
  );
  return greyOfRgba(drawn.width, drawn.height, Buffer.from(drawn.rgba, 'base64'));
}

/** How unlike the reference the page's most alike line is (0: the same drawing). */
function closestLine(page: Grey, lines: ReturnType<typeof inkLines>, reference: Grey): number {
  const box = inkBox(reference);
  if (!box) throw new Error('the reference drew nothing');
  return Math.min(...lines.map((line) => inkDifference(page, line, reference, box)));
}

describe("a campaign's printed matter", () => {
  it('the QR code (SVG, PNG) and the A4 poster read back to the link; the poster’s Tamil is shaped', async () => {
    const { page, context, s } = await openStaffPage(browser, {
      appUrl,
      language: 'en',
      viewport: { width: 1280, height: 800 },
      path: '/admin',
      heading: (t) => t.dashboard.title,
    });
    try {
      await page.getByRole('link', { name: s.nav.campaigns, exact: true }).click();
      const card = page.getByTestId(`campaign-${campaign.code}`);
      await card.getByRole('img').waitFor();
      expect(await card.getByTestId('campaign-link').innerText()).toBe(link);

      // The code as the page offers it, drawn by Chromium and read by jsQR.
      const svg = await download(page, card, campaignsEn.downloadSvg);
      expect(decodeQr(await drawnByChromium(page, svg, 'image/svg+xml', 320))).toBe(link);
      const png = await download(page, card, campaignsEn.downloadPng);
      expect(decodeQr(await drawnByChromium(page, png, 'image/png'))).toBe(link);

      // The poster as poppler prints it: the code found on the whole page and read.
      const pdf = await download(page, card, campaignsEn.poster);
      const printed = await rasterisePdf(pdf, DPI);
      await pdfPagePng(pdf, 100, join(screenshotsDir, 'campaign-poster-printed'));
      expect(decodeQr(printed)).toBe(link);

      // Each Tamil line: one line of the page is the reference's drawing, and the same
      // letters unshaped are not (the threshold tells the two apart).
      const lines = inkLines(printed, Math.round(px(4)));
      const reference = await context.newPage();
      await reference.setContent(`<style>${referenceFontCss()}</style>`);
      for (const line of tamilLines) {
        const shaped = closestLine(printed, lines, await referenceLine(reference, line.text, px(line.size)));
        const unshaped = closestLine(printed, lines, await referenceLine(reference, line.text, px(line.size), true));
        expect(shaped, line.text).toBeLessThan(SAME_DRAWING);
        expect(unshaped, `${line.text} unshaped`).toBeGreaterThan(3 * SAME_DRAWING);
      }
    } finally {
      await context.close();
    }
  });
});
