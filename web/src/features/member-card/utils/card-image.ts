import { darkRuns, QR_MARGIN, type QrMatrix } from '../../../lib/qr';
import { CANVAS_TAMIL_FAMILY, loadCanvasTamilFonts } from '../../../lib/tamil-canvas-font';

// The card as an image, drawn by the browser: its text engine shapes Tamil (vowel signs
// before their consonant, conjuncts), which no PDF library of ours can do. The PNG is this
// canvas; both PDFs embed it. ID-1 size (85.6 × 54 mm) at 300 dpi, so that the printed
// card is sharp and its QR code's modules stay whole pixels wide.

export const CARD_MM = { width: 85.6, height: 54 } as const;
const DPI = 300;
const px = (mm: number) => Math.round((mm / 25.4) * DPI);
export const CARD_PX = { width: px(CARD_MM.width), height: px(CARD_MM.height) } as const;

const PRIMARY = '#7a1712';
const ACCENT = '#f2b705';
const TEXT = '#1c1917';
const MUTED = '#57534e';
const PAD = 44;
const HEADER = 120;

export interface CardFace {
  readonly wing: string;
  readonly title: string;
  readonly name: string;
  /** Label and value pairs, top to bottom. */
  readonly fields: readonly { readonly label: string; readonly value: string }[];
  readonly matrix: QrMatrix;
}

const font = (size: number, weight: 400 | 700) => `${weight} ${size}px "${CANVAS_TAMIL_FAMILY}"`;

/** Draws `text` at the largest size up to `size` that fits `width` (down to 60 %: a long name still shows whole). */
function fitText(
  context: CanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  width: number,
  size: number,
  weight: 400 | 700,
) {
  let current = size;
  context.font = font(current, weight);
  while (current > size * 0.6 && context.measureText(text).width > width) {
    current -= 1;
    context.font = font(current, weight);
  }
  context.fillText(text, x, y, width);
}

function drawQr(context: CanvasRenderingContext2D, matrix: QrMatrix, left: number, top: number, side: number) {
  const modules = matrix.size + 2 * QR_MARGIN;
  // Whole pixels a module: a scanner (and jsQR) reads crisp modules best.
  const module = Math.floor(side / modules);
  const offset = Math.floor((side - module * modules) / 2);
  context.fillStyle = '#fff';
  context.fillRect(left, top, side, side);
  context.fillStyle = '#000';
  for (const [x, y, w] of darkRuns(matrix)) {
    context.fillRect(
      left + offset + (x + QR_MARGIN) * module,
      top + offset + (y + QR_MARGIN) * module,
      w * module,
      module,
    );
  }
}

/** The card on a canvas, in the self-hosted Noto Sans Tamil (awaited: a canvas draws with whatever face is ready). */
export async function drawCard(face: CardFace): Promise<HTMLCanvasElement> {
  await loadCanvasTamilFonts();
  const canvas = document.createElement('canvas');
  canvas.width = CARD_PX.width;
  canvas.height = CARD_PX.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const { width, height } = canvas;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = PRIMARY;
  context.fillRect(0, 0, width, HEADER);
  context.fillStyle = ACCENT;
  context.fillRect(0, HEADER, width, 8);
  context.textBaseline = 'alphabetic';
  context.fillStyle = '#fff';
  fitText(context, face.wing, PAD, 62, width - 2 * PAD, 46, 700);
  fitText(context, face.title, PAD, 102, width - 2 * PAD, 28, 400);

  const qrSide = height - HEADER - 8 - 2 * 24;
  const qrLeft = width - PAD + 16 - qrSide;
  drawQr(context, face.matrix, qrLeft, HEADER + 8 + 24, qrSide);

  const textWidth = qrLeft - PAD - 16;
  let y = HEADER + 8 + 62;
  context.fillStyle = TEXT;
  fitText(context, face.name, PAD, y, textWidth, 44, 700);
  y += 22;
  for (const field of face.fields) {
    // A field's label nearer its own value than the value above it.
    y += 42;
    context.fillStyle = MUTED;
    fitText(context, field.label, PAD, y, textWidth, 24, 400);
    y += 40;
    context.fillStyle = TEXT;
    fitText(context, field.value, PAD, y, textWidth, 32, 700);
  }
  return canvas;
}

export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((done, fail) =>
    canvas.toBlob((blob) => (blob ? done(blob) : fail(new Error('no PNG'))), 'image/png'),
  );
}
