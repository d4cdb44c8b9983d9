/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotsDir = resolve(import.meta.dirname, '../../.test-artifacts/screenshots');

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const viewports = {
  phone: { width: 360, height: 740 },
  tablet: { width: 768, height: 1024 },
  desktop: { width: 1280, height: 800 },
} as const;

/** Two frames drawn: what a change set in motion is on the screen. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/**
 * Full-page screenshot as a test artifact (not committed): look at them. Taken again when
 * it came out wider than the window while nothing on the page is: right after a resize
 * the shot can catch the page as it was before (the Reports page at 360 px came out
 * 601 px wide, the page itself 360), and an artifact must show what a person sees.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const path = join(screenshotsDir, `${name}.png`);
  const window = page.viewportSize()?.width ?? Infinity;
  for (let attempt = 1; ; attempt++) {
    await settled(page);
    const png = await page.screenshot({ path, fullPage: true });
    const stale = png.readUInt32BE(16) > window && !(await hasHorizontalOverflow(page));
    if (!stale || attempt === 3) return path;
    await page.waitForTimeout(300);
  }
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling). */
export async function hasHorizontalOverflow(page: Page): Promise<boolean> {
  await settled(page);
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/**
 * axe-core's serious and critical findings on the page as it is now, as "rule: help (targets)".
 * axe runs in the page itself (legacy mode: otherwise each check opens a blank page, a
 * renderer process, to merge the frames' results) and in its same-origin frames; a frame
 * of another origin (Google's reCAPTCHA badge in production) is not checked, not being
 * ours to fix. It gathers the details of violations only (`resultTypes`), the one result
 * read here. Together a third off the browser tests that check most (public-flow's legal
 * texts: 102 to 65 s).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * Words (runs of non-space) inside the elements matching `selector` that the browser
 * wrapped across two lines, "Pendi/ng": each word's range has boxes at two heights.
 */
export async function wordsBrokenAcrossLines(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const element of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/gu)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top)));
          if (lines.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }, selector);
}

export interface PlatformFont {
  readonly familyName: string;
  readonly isCustomFont: boolean;
  readonly glyphCount: number;
}

/** The fonts Chromium drew an element's own text with (DevTools' "Rendered fonts"), and how many glyphs each. */
export async function platformFonts(page: Page, element: Locator): Promise<PlatformFont[]> {
  await element.evaluate((e) => e.setAttribute('data-font-probe', ''));
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-probe]' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await cdp.detach();
    await element.evaluate((e) => e.removeAttribute('data-font-probe'));
  }
}
