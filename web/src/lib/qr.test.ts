import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { campaignLink } from '../../../rules/campaigns';
import { darkRuns, QR_MARGIN, qrMatrix, qrSvg } from './qr';

// The SVG the page shows and offers draws exactly the modules of the link's QR code,
// with the quiet zone, and a decoder of its own (jsQR) reads what it paints back to the
// link. (The browser tier reads the page's own downloads, drawn by Chromium:
// test/e2e/campaign-print.test.ts.)

const link = campaignLink('https://join.example.org', 'abc234');

/** The dark modules an SVG path of `M{x} {y}h{w}v1h-{w}z` runs paints, as a grid. */
function paintedGrid(svg: string, size: number): number[] {
  const grid = new Array<number>(size * size).fill(0);
  const path = /<path fill="#000" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  for (const m of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)) {
    const [x, y, w, back] = m.slice(1).map(Number) as [number, number, number, number];
    expect(back).toBe(w);
    for (let i = 0; i < w; i += 1) grid[(y - QR_MARGIN) * size + x - QR_MARGIN + i] = 1;
  }
  return grid;
}

/** The grid `scale` pixels a module inside its white quiet zone, as the RGBA jsQR reads. */
function pixelsOf(grid: readonly number[], size: number, scale = 4) {
  const side = (size + 2 * QR_MARGIN) * scale;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const [mx, my] = [Math.floor(x / scale) - QR_MARGIN, Math.floor(y / scale) - QR_MARGIN];
      const dark = mx >= 0 && my >= 0 && mx < size && my < size && grid[my * size + mx] === 1;
      if (dark) rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return { rgba, side };
}

describe('the QR code of a campaign link', () => {
  it("is the link's code at level M", async () => {
    const matrix = await qrMatrix(link);
    const reference = QRCode.create(link, { errorCorrectionLevel: 'M' }).modules;
    expect(matrix.size).toBe(reference.size);
    expect([...matrix.data]).toEqual([...reference.data]);
  });

  it('draws every dark module and nothing else, inside a 4-module quiet zone', async () => {
    const matrix = await qrMatrix(link);
    const svg = qrSvg(matrix, 'Loyola <College> & co');
    const side = matrix.size + 2 * QR_MARGIN;
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
    expect(svg).toContain('<title>Loyola &lt;College> &amp; co</title>');
    expect(paintedGrid(svg, matrix.size)).toEqual([...matrix.data]);
    expect(darkRuns(matrix).every(([x, , w]) => x >= 0 && x + w <= matrix.size)).toBe(true);
    const { rgba, side: pixels } = pixelsOf(paintedGrid(svg, matrix.size), matrix.size);
    expect(jsQR(rgba, pixels, pixels)?.data).toBe(link);
  });
});
