import { whitePage, wrapWords } from '../../../lib/canvas-text';
import { CANVAS_TAMIL_FAMILY, loadCanvasTamilFonts } from '../../../lib/tamil-canvas-font';
import { onePagePdf } from './pdf-writer';
import { darkRuns, QR_MARGIN, type QrMatrix } from '../../../lib/qr';

// The printable A4 poster (issue 19), loaded only when one is asked for. Tamil needs
// shaping (vowel signs before their consonant, conjuncts such as க்ஷ, ligatures): the
// browser's own text engine does it when the lines are drawn on a canvas, in the
// self-hosted Noto Sans Tamil (lib/tamil-canvas-font.ts); the canvas (300 dpi, grey) becomes the page's image and
// the QR code is drawn over it as vector rectangles, sharp at any print size.

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
const DPI = 300;
const SCALE = DPI / 72;
const FAMILY = CANVAS_TAMIL_FAMILY;
const MARGIN = 40;

export interface PosterLanguage {
  readonly wing: string;
  readonly name: string;
  readonly invite: string;
  readonly or: string;
}

export interface PosterParts {
  readonly matrix: QrMatrix;
  readonly link: string;
  readonly title: string;
  readonly ta: PosterLanguage;
  readonly en: PosterLanguage;
}

/** The poster's faces (lib/tamil-canvas-font.ts). */
export const loadPosterFonts = loadCanvasTamilFonts;

interface Line {
  readonly text: string;
  /** Points. */
  readonly size: number;
  readonly weight: 400 | 700;
  /** Space above, points. */
  readonly gap?: number;
}

const fontOf = (line: Pick<Line, 'size' | 'weight'>) => `${line.weight} ${line.size * SCALE}px "${FAMILY}"`;

/** A line broken at spaces to fit `width` points (a word longer than the line stays whole). */
function wrap(context: CanvasRenderingContext2D, line: Line, width: number): Line[] {
  context.font = fontOf(line);
  return wrapWords(context, line.text, width * SCALE).map((text, i) => ({
    ...line,
    text,
    gap: i === 0 ? line.gap : 0,
  }));
}

const lineHeight = (line: Line) => line.size * 1.55 + (line.gap ?? 0);

/** The lines above and below the code; the code takes the room that is left, at most 300 pt. */
function layout(context: CanvasRenderingContext2D, parts: PosterParts) {
  const width = A4.width - 2 * MARGIN;
  const above = [
    { text: parts.ta.wing, size: 24, weight: 700 },
    { text: parts.en.wing, size: 15, weight: 400 },
    { text: parts.ta.name, size: 30, weight: 700, gap: 22 },
    { text: parts.en.name, size: 22, weight: 700 },
  ].flatMap((line) => wrap(context, line as Line, width));
  const below = [
    { text: parts.ta.invite, size: 21, weight: 700, gap: 8 },
    { text: parts.en.invite, size: 17, weight: 400 },
    { text: `${parts.ta.or} · ${parts.en.or}`, size: 12, weight: 400, gap: 14 },
    { text: parts.link, size: 15, weight: 700 },
  ].flatMap((line) => wrap(context, line as Line, width));
  const textHeight = [...above, ...below].reduce((sum, line) => sum + lineHeight(line), 0);
  const qrSize = Math.max(160, Math.min(300, A4.height - 2 * MARGIN - textHeight - 24));
  return { above, below, qrSize };
}

/** Draws lines centred from `top` (points); answers the next free top. */
function drawLines(context: CanvasRenderingContext2D, lines: Line[], top: number): number {
  let y = top;
  for (const line of lines) {
    y += line.gap ?? 0;
    context.font = fontOf(line);
    context.fillText(line.text, (A4.width / 2) * SCALE, (y + line.size * 1.2) * SCALE);
    y += line.size * 1.55;
  }
  return y;
}

/** The poster's text on a white A4 canvas at 300 dpi, and where the code goes (points, from the top left). */
export async function drawPoster(parts: PosterParts) {
  await loadPosterFonts();
  const { canvas, context } = whitePage(A4.width, A4.height, SCALE, '#000');
  context.textAlign = 'center';
  const { above, below, qrSize } = layout(context, parts);
  const qrTop = drawLines(context, above, MARGIN) + 12;
  drawLines(context, below, qrTop + qrSize + 12);
  return { canvas, qr: { left: (A4.width - qrSize) / 2, top: qrTop, size: qrSize } };
}

/** The code as filled rectangles in PDF units (origin bottom left), quiet zone inside `size`. */
function qrDrawing(matrix: QrMatrix, box: { left: number; top: number; size: number }): string {
  const module = box.size / (matrix.size + 2 * QR_MARGIN);
  const n = (value: number) => value.toFixed(3);
  const rects = darkRuns(matrix).map(([x, y, w]) => {
    const left = box.left + (x + QR_MARGIN) * module;
    const bottom = A4.height - (box.top + (y + QR_MARGIN + 1) * module);
    // A hair of overlap between rows, so that no white seam shows between them.
    return `${n(left)} ${n(bottom - 0.01)} ${n(w * module)} ${n(module + 0.02)} re`;
  });
  return `0 g\n${rects.join('\n')}\nf`;
}

/** The A4 poster as a PDF: names, the invitation and the link in Tamil and English, and the code. */
export async function posterPdf(parts: PosterParts): Promise<Blob> {
  const { canvas, qr } = await drawPoster(parts);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const grey = new Uint8Array(canvas.width * canvas.height);
  for (let i = 0; i < grey.length; i += 1) grey[i] = rgba[i * 4] ?? 255;
  return onePagePdf({
    width: A4.width,
    height: A4.height,
    image: { width: canvas.width, height: canvas.height, colorSpace: 'DeviceGray', pixels: grey },
    drawing: qrDrawing(parts.matrix, qr),
    title: parts.title,
  });
}
