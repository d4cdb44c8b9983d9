/// <reference lib="dom" />
import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialsOf, parseCardToken } from '../../rules/member-card';
import { cardEn } from '../../web/src/i18n/member-card-en';
import { cardTa } from '../../web/src/i18n/member-card-ta';
import {
  hasHorizontalOverflow,
  launchChromium,
  screenshot as shoot,
  screenshotsDir,
  viewports,
} from '../support/browser';
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
import { type StackProcess, startStackProcess } from '../support/local-stack-process';
import { goodCaptcha, post } from '../support/public-flow';
import { applyThroughPublicFlow, otpFor, randomMarker, randomMobile, readLocalEndpoints } from '../support/staff-data';
import { signIn as cognitoSignIn } from '../support/tokens';

// The member's card (issue 20) in Chromium against `npm start`: a member approved through
// the staff API gets the card link in the approval notice (the outbox); the page shows the
// card; its PNG and PDFs, read back by jsQR and poppler, hold the QR code of the /v# link
// and the Tamil name shaped as Chromium shapes it; the verification page says valid, then
// not valid after the staff API revokes the card, and a tampered token fails offline. The
// verification page's HTML and its network answers name no number, full name or phone.

// A stack of its own: the approval's notice (with the card link) goes at once, not after
// the default five quiet minutes in which staff may change their mind.
let stack: StackProcess;
let appUrl: string;
const marker = randomMarker();
const mobile = randomMobile();
/** A conjunct (க்ஷ) and two-part vowel signs (கொ, ஷே): unshaped text would not match. */
const tamilName = 'க்ஷேமா கொற்றவை';
const LINK = /\/card\??#([a-z2-9]{16}\.[A-Za-z0-9_-]{22})/;
let browser: Browser;
let token: string;
let applicationId: string;
let link: string;

async function staff<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${appUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The card link the approval notice carried, from the sandbox's outbox. */
async function linkFromOutbox(): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const outbox = (await (await fetch(`${appUrl}/dev/outbox.json`)).json()) as Record<string, unknown>[];
    const mine = outbox.filter((m) => String(m.to).replace(/^\+/, '') === `91${mobile}` && m.kind !== 'otp');
    const found = mine.map((m) => LINK.exec(JSON.stringify(m))?.[1]).find(Boolean);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no card link reached the outbox');
}

beforeAll(async () => {
  stack = await startStackProcess('member-card-stack', { LOCAL_DECISION_QUIET_SECONDS: '0' });
  appUrl = stack.url;
  browser = await launchChromium();
  const endpoints = readLocalEndpoints(stack.dataDir);
  token = await cognitoSignIn(endpoints.cognitoEndpoint, endpoints.userPoolClientId, {
    email: 'admin@example.com',
    password: 'Admin-Password-123!',
  });
  applicationId = await applyThroughPublicFlow(appUrl, mobile, {
    name: tamilName,
    email: `${marker}@example.com`,
    revenue_district: 'Salem',
    assembly_constituency: 'Attur',
  });
  await staff('POST', '/api/admin/applications/status', { ids: [applicationId], status: 'approved' });
  link = await linkFromOutbox();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A screenshot once the page's Tamil faces are in: before, Chromium shows boxes in their place. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await shoot(page, name);
}

async function openPage(language: 'en' | 'ta', width: keyof typeof viewports = 'phone') {
  const context = await browser.newContext({ viewport: viewports[width], acceptDownloads: true });
  await context.addInitScript((lang) => window.localStorage.setItem('app_language', lang), language);
  return { context, page: await context.newPage() };
}

async function openCard(page: Page, language: 'en' | 'ta') {
  await page.goto(`${appUrl}/card#${link}`);
  await page.getByTestId('member-card').waitFor();
  const s = language === 'ta' ? cardTa : cardEn;
  // Its labels in the page's language (a plain wait: this also runs in a beforeAll).
  await page.getByTestId('member-card').getByText(s.card.memberNumber, { exact: true }).waitFor();
  return s;
}

async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return file.path();
}

/** A PNG file as Chromium decodes it. */
async function pngPixels(page: Page, path: string): Promise<Grey> {
  const drawn = await page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (const byte of rgba) binary += String.fromCharCode(byte);
    return { width: canvas.width, height: canvas.height, rgba: btoa(binary) };
  }, readFileSync(path).toString('base64'));
  return greyOfRgba(drawn.width, drawn.height, Buffer.from(drawn.rgba, 'base64'));
}

/** fontsource's bold Noto Sans Tamil, inlined: the reference page draws with nothing of the app's. */
function referenceFontCss(): string {
  const dir = resolve(import.meta.dirname, '../../node_modules/@fontsource/noto-sans-tamil');
  return readFileSync(join(dir, '700.css'), 'utf8').replace(/url\(\.\/files\/([^)]+)\)/g, (_, file: string) => {
    const type = file.endsWith('.woff2') ? 'font/woff2' : 'font/woff';
    return `url(data:${type};base64,${readFileSync(join(dir, 'files', file)).toString('base64')})`;
  });
}

/** The name's room on the 1011 px card, left of the QR code (card-image.ts: a longer name is drawn smaller). */
const NAME_ROOM = 461;

/** The line as Chromium draws it in bold Noto Sans Tamil, at most `largest` px; `unshaped`: letter by letter. */
async function referenceLine(page: Page, text: string, largest: number, unshaped = false): Promise<Grey> {
  const drawn = await page.evaluate(
    async ({ text, largest, unshaped, room }) => {
      await document.fonts.load(`700 ${largest}px "Noto Sans Tamil"`, text);
      if (!document.fonts.check(`700 ${largest}px "Noto Sans Tamil"`, text))
        throw new Error('Noto Sans Tamil did not load');
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d')!;
      // The size the card chose: the largest at which the shaped line fits its room.
      let size = largest;
      context.font = `700 ${size}px "Noto Sans Tamil"`;
      while (size > largest * 0.6 && context.measureText(text).width > room) {
        size -= 1;
        context.font = `700 ${size}px "Noto Sans Tamil"`;
      }
      const font = `700 ${size}px "Noto Sans Tamil"`;
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
    { text, largest, unshaped, room: NAME_ROOM },
  );
  return greyOfRgba(drawn.width, drawn.height, Buffer.from(drawn.rgba, 'base64'));
}

/** The card's text column under its coloured header (the header and the QR code are ink too). */
function textColumn(card: Grey): Grey {
  const top = Math.round(card.height * 0.22);
  const width = Math.round(card.width * 0.5);
  const data = new Uint8Array(width * (card.height - top));
  for (let y = top; y < card.height; y++)
    data.set(card.data.subarray(y * card.width, y * card.width + width), (y - top) * width);
  return { width, height: card.height - top, data };
}

/** How unlike the reference the column's most alike line is (0: the same drawing). */
function closestLine(card: Grey, reference: Grey): number {
  const column = textColumn(card);
  const box = inkBox(reference)!;
  return Math.min(...inkLines(column, 6).map((line) => inkDifference(column, line, reference, box)));
}

async function expectShapedName(page: Page, card: Grey) {
  const reference = await page.context().newPage();
  await reference.setContent(`<style>${referenceFontCss()}</style>`);
  // drawCard draws the name bold at 44 px of the 300 dpi card (card-image.ts).
  const shaped = closestLine(card, await referenceLine(reference, tamilName, 44));
  const unshaped = closestLine(card, await referenceLine(reference, tamilName, 44, true));
  await reference.close();
  expect(shaped).toBeLessThan(0.12);
  expect(unshaped).toBeGreaterThan(shaped + 0.1);
}

describe('the member card', () => {
  for (const language of ['ta', 'en'] as const) {
    it(`shows the card at 360 px in ${language}; its PNG and PDFs hold the shaped Tamil name and the /v# QR code`, async () => {
      const { context, page } = await openPage(language);
      const s = await openCard(page, language);
      const text = await page.getByTestId('member-card').innerText();
      expect(text).toContain(tamilName);
      expect(text).toMatch(/TNSW-\d{4}-\d{6}/);
      expect(text).toContain(language === 'ta' ? 'ஆத்தூர், சேலம்' : 'Attur, Salem');
      expect(await hasHorizontalOverflow(page)).toBe(false);

      const pngFile = await download(page, s.card.png);
      copyFileSync(pngFile, join(screenshotsDir, `member-card-png-${language}.png`));
      const png = await pngPixels(page, pngFile);
      expect(png.width).toBe(1011);
      const url = decodeQr(png);
      expect(url).toMatch(new RegExp(`^${appUrl}/v#`));
      expect(parseCardToken(url!.split('#')[1])).toBeTruthy();
      await expectShapedName(page, png);

      const phone = await download(page, s.card.phonePdf);
      const phonePage = await rasterisePdf(phone, 300);
      expect(Math.abs(phonePage.width - 1011)).toBeLessThanOrEqual(2);
      expect(decodeQr(phonePage)).toBe(url);
      await expectShapedName(page, phonePage);
      await pdfPagePng(phone, 150, join(screenshotsDir, `member-card-phone-pdf-${language}`));

      const print = await download(page, s.card.printPdf);
      const a4 = await rasterisePdf(print, 300);
      // A4 at 300 dpi is 2480 × 3508; the card on it is ID-1, 85.6 mm: 1011 px.
      expect(Math.abs(a4.width - 2480)).toBeLessThanOrEqual(2);
      expect(decodeQr(a4)).toBe(url);
      await pdfPagePng(print, 75, join(screenshotsDir, `member-card-print-pdf-${language}`));
      await context.close();
    });
  }

  it('fits 360, 768 and 1280 px in Tamil and English (screenshots)', async () => {
    for (const language of ['ta', 'en'] as const) {
      for (const width of ['phone', 'tablet', 'desktop'] as const) {
        const { context, page } = await openPage(language, width);
        await openCard(page, language);
        expect(await hasHorizontalOverflow(page), `card ${language} ${width}`).toBe(false);
        // Large enough for a steward's camera: the signed token makes a dense code.
        const qr = await page.locator('.member-card-qr').boundingBox();
        expect(qr?.width, `QR code at ${width}`).toBeGreaterThanOrEqual(width === 'phone' ? 220 : 240);
        await screenshot(page, `member-card-${language}-${viewports[width].width}`);
        await context.close();
      }
    }
  });

  it('turns every label at once when the language is switched on the card', async () => {
    const { context, page } = await openPage('ta');
    try {
      await openCard(page, 'ta');
      await page.getByRole('button', { name: 'English', exact: true }).click();
      const card = page.getByTestId('member-card');
      await card.getByText(cardEn.card.memberNumber, { exact: true }).waitFor();
      for (const label of [cardEn.card.district, cardEn.card.memberSince])
        expect(await card.getByText(label, { exact: true }).count(), label).toBe(1);
      expect(await page.getByRole('heading', { name: cardEn.card.saveHeading }).count()).toBe(1);
      expect(await page.getByRole('button', { name: cardEn.card.png, exact: true }).count()).toBe(1);
      for (const label of [cardTa.card.memberNumber, cardTa.card.saveHeading, cardTa.card.png])
        expect(await page.getByText(label, { exact: true }).count(), label).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('the verification page', () => {
  let verifyUrl: string;
  beforeAll(async () => {
    const { context, page } = await openPage('en');
    await openCard(page, 'en');
    const png = await pngPixels(page, await download(page, cardEn.card.png));
    verifyUrl = decodeQr(png)!;
    await context.close();
  }, 60_000);

  it('says valid with since when, the district and the initials, and names no number, name or phone', async () => {
    for (const language of ['ta', 'en'] as const) {
      for (const width of ['phone', 'tablet', 'desktop'] as const) {
        const { context, page } = await openPage(language, width);
        const bodies: Promise<string>[] = [];
        page.on('response', (response) => {
          if (response.url().includes('/api/')) bodies.push(response.text().catch(() => ''));
        });
        await page.goto(verifyUrl);
        const verdict = page.getByTestId('verify-verdict');
        await expect.poll(() => verdict.getAttribute('data-state')).toBe('valid');
        const s = language === 'ta' ? cardTa : cardEn;
        expect(await verdict.innerText()).toContain(s.verify.valid);
        const facts = await page.getByTestId('verify-facts').innerText();
        expect(facts).toContain(language === 'ta' ? 'சேலம்' : 'Salem');
        // The signed initials, as the contract makes them from the name.
        expect(facts).toContain(initialsOf(tamilName));
        expect(await hasHorizontalOverflow(page)).toBe(false);
        const html = await page.content();
        const answers = (await Promise.all(bodies)).join('\n');
        for (const secret of [tamilName, mobile, 'TNSW-']) {
          expect(html, secret).not.toContain(secret);
          expect(answers, secret).not.toContain(secret);
        }
        await screenshot(page, `member-verify-${language}-${viewports[width].width}`);
        await context.close();
      }
    }
  });

  it('says not valid for a tampered token, even with the server unreachable', async () => {
    const { context, page } = await openPage('en');
    // Keys remembered from a first check, then no network for the API at all.
    await page.goto(verifyUrl);
    await expect.poll(() => page.getByTestId('verify-verdict').getAttribute('data-state')).toBe('valid');
    // By path: a glob on /api/ would also stop the dev server's modules under features/*/api/.
    await page.route(
      (url) => url.pathname.startsWith('/api/'),
      (route) => route.abort('internetdisconnected'),
    );
    const [claims, signature] = verifyUrl.split('#')[1]!.split('.');
    const json = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...json, m: '2020-01-01' })).toString('base64url');
    await page.goto(`${appUrl}/v#${forged}.${signature}`);
    await expect.poll(() => page.getByTestId('verify-verdict').getAttribute('data-state')).toBe('not-valid');
    // The genuine token offline: its signature is good, the server could not be asked.
    await page.goto('about:blank');
    await page.goto(verifyUrl);
    await expect.poll(() => page.getByTestId('verify-verdict').getAttribute('data-state')).toBe('offline');
    await screenshot(page, 'member-verify-offline-en-360');
    await context.close();
  });

  it('gives the same link to Get my card after the number is checked again', async () => {
    // The code check of a registered number carries its verification (for "Get my card").
    // A number waits a minute between codes: the earlier tests took most of it.
    await expect
      .poll(async () => (await post(appUrl, '/api/otp/request', { mobile, captchaToken: goodCaptcha })).status, {
        timeout: 80_000,
        interval: 5_000,
      })
      .toBe(200);
    const checked = await post(appUrl, '/api/otp/verify', { mobile, code: await otpFor(appUrl, mobile) });
    expect(checked.status).toBe(409);
    const error = (checked.body as { error: { verificationToken?: string } }).error;
    const mine = await post(appUrl, '/api/card/mine', { verificationToken: error.verificationToken });
    expect(mine.status).toBe(200);
    expect(mine.body.link).toBe(link);
  }, 120_000);

  it('says not valid after the staff API revokes the card, and the card link stops working', async () => {
    const { card } = await staff<{ card: { state: string; valid: boolean } }>(
      'POST',
      `/api/admin/applications/${applicationId}/card`,
      { action: 'revoke' },
    );
    expect(card).toMatchObject({ state: 'revoked', valid: false });
    const { context, page } = await openPage('ta');
    await page.goto(verifyUrl);
    const verdict = page.getByTestId('verify-verdict');
    await expect.poll(() => verdict.getAttribute('data-state')).toBe('not-valid');
    expect(await verdict.innerText()).toContain(cardTa.verify.notValid);
    await screenshot(page, 'member-verify-revoked-ta-360');
    await page.goto(`${appUrl}/card#${link}`);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('இந்த அட்டை இணைப்பு இப்போது செல்லாது');
    await screenshot(page, 'member-card-not-found-ta-360');
    await context.close();
  });
});
