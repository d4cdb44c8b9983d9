import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { campaignLink } from '../../../../../rules/campaigns';
import { darkRuns, QR_MARGIN, qrMatrix, qrSvg } from './qr';

// The SVG the page shows and offers draws exactly the modules of the link's QR code,
// with the quiet zone. (Decoding the image back to the link needs a QR decoder such as
// `jsqr`, which is not installed: see the report of issue 19 part 1.)

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
  });
});
