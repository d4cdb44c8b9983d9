import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';

// Images as the tests read them back: a PDF rasterised by poppler's pdftoppm (what a
// printer or a PDF viewer shows, not what our writer meant to put there), QR codes read by
// jsQR (a decoder of its own, not the `qrcode` module that drew them), and lines of text
// found by their ink and compared with a reference drawing.

/** One grey channel, row by row, 0 black to 255 white. */
export interface Grey {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** A box of pixels: `right` and `bottom` exclusive. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

const INK = 128;

/** A binary PGM (P5, max 255), the format `pdftoppm -gray` writes. */
function readPgm(bytes: Buffer): Grey {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.toString('latin1', 0, 64));
  if (!header) throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const data = bytes.subarray(header[0].length, header[0].length + width * height);
  if (data.length !== width * height) throw new Error(`PGM holds ${data.length} of ${width * height} pixels`);
  return { width, height, data: new Uint8Array(data) };
}

const run = promisify(execFile);

/** The PDF's first page in grey at `dpi`, as poppler renders it. */
export async function rasterisePdf(pdfPath: string, dpi: number): Promise<Grey> {
  const { stdout } = await run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', pdfPath], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return readPgm(stdout);
}

/** The first page as a PNG file to look at (`out` without its extension, as pdftoppm wants it). */
export async function pdfPagePng(pdfPath: string, dpi: number, out: string): Promise<string> {
  mkdirSync(dirname(out), { recursive: true });
  await run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', pdfPath, out]);
  return `${out}.png`;
}

/** Grey pixels from RGBA ones (a canvas's `getImageData`): the red channel of grey ink on white. */
export function greyOfRgba(width: number, height: number, rgba: Uint8Array): Grey {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i += 1) {
    // Transparent counts as white: an SVG or PNG is read as it shows on paper.
    const alpha = rgba[i * 4 + 3] ?? 255;
    data[i] = Math.round(((rgba[i * 4] ?? 255) * alpha + 255 * (255 - alpha)) / 255);
  }
  return { width, height, data };
}

/** What jsQR reads anywhere in the image, or undefined when it finds no code. */
export function decodeQr(image: Grey): string | undefined {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0; i < image.data.length; i += 1) {
    const v = image.data[i] ?? 255;
    rgba.set([v, v, v, 255], i * 4);
  }
  return jsQR(rgba, image.width, image.height, { inversionAttempts: 'dontInvert' })?.data;
}

const isInk = (image: Grey, x: number, y: number) => (image.data[y * image.width + x] ?? 255) < INK;

/** The smallest box around the ink inside `within`, or undefined when it holds none. */
export function inkBox(
  image: Grey,
  within: Box = { left: 0, top: 0, right: image.width, bottom: image.height },
): Box | undefined {
  let box: { left: number; top: number; right: number; bottom: number } | undefined;
  for (let y = within.top; y < within.bottom; y += 1) {
    for (let x = within.left; x < within.right; x += 1) {
      if (!isInk(image, x, y)) continue;
      box ??= { left: x, top: y, right: x + 1, bottom: y + 1 };
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x + 1);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y + 1);
    }
  }
  return box;
}

/**
 * The page's lines: runs of rows holding ink, a run that resumes within `gap` rows joined
 * to the one above (a Tamil line's dots and marks above the letters stand apart), each
 * with the box of its ink.
 */
export function inkLines(image: Grey, gap: number): Box[] {
  const rows: [number, number][] = [];
  for (let y = 0; y < image.height; y += 1) {
    let ink = false;
    for (let x = 0; x < image.width && !ink; x += 1) ink = isInk(image, x, y);
    if (!ink) continue;
    const last = rows.at(-1);
    if (last && y - last[1] <= gap) last[1] = y + 1;
    else rows.push([y, y + 1]);
  }
  return rows.map(([top, bottom]) => inkBox(image, { left: 0, top, right: image.width, bottom })!);
}

/**
 * How unlike two drawings are: the pixels that are ink in one and not in the other, over
 * the ink of both, with the two boxes laid top-left on top-left and shifted by up to
 * `slack` pixels each way (the best shift counts). 0 is the same drawing; boxes whose
 * sizes differ by more than the slack are unlike (1).
 */
export function inkDifference(a: Grey, boxA: Box, b: Grey, boxB: Box, slack = 2): number {
  const [wa, ha, wb, hb] = [
    boxA.right - boxA.left,
    boxA.bottom - boxA.top,
    boxB.right - boxB.left,
    boxB.bottom - boxB.top,
  ];
  if (Math.abs(wa - wb) > slack || Math.abs(ha - hb) > slack) return 1;
  let best = 1;
  for (let dy = -slack; dy <= slack; dy += 1) {
    for (let dx = -slack; dx <= slack; dx += 1) {
      let differ = 0;
      let ink = 0;
      for (let y = Math.min(0, dy); y < Math.max(ha, hb + dy); y += 1) {
        for (let x = Math.min(0, dx); x < Math.max(wa, wb + dx); x += 1) {
          const inA = x >= 0 && y >= 0 && x < wa && y < ha && isInk(a, boxA.left + x, boxA.top + y);
          const bx = x - dx;
          const by = y - dy;
          const inB = bx >= 0 && by >= 0 && bx < wb && by < hb && isInk(b, boxB.left + bx, boxB.top + by);
          if (inA || inB) ink += 1;
          if (inA !== inB) differ += 1;
        }
      }
      best = Math.min(best, ink ? differ / ink : 1);
    }
  }
  return best;
}
