import { CARD_MM } from './card-image';

// The card's PDFs, made with pdf-lib (loaded on the first click only: it is about 180 KB
// gzip and most members never ask for a PDF). pdf-lib cannot shape Tamil text, so the
// card is the browser-drawn PNG, embedded as an image.

const POINTS_PER_MM = 72 / 25.4;
const A4 = { width: 595.28, height: 841.89 } as const;
const CARD_PT = { width: CARD_MM.width * POINTS_PER_MM, height: CARD_MM.height * POINTS_PER_MM };

export type CardPdfKind = 'phone' | 'print';

/** Crop marks 5 mm long, 2 mm off each corner, so that a card cut with scissors is exactly ID-1. */
function cropMarks(left: number, bottom: number): [number, number, number, number][] {
  const gap = 2 * POINTS_PER_MM;
  const long = 5 * POINTS_PER_MM;
  const right = left + CARD_PT.width;
  const top = bottom + CARD_PT.height;
  const marks: [number, number, number, number][] = [];
  for (const x of [left, right]) {
    for (const y of [bottom, top]) {
      const out = y === top ? 1 : -1;
      const side = x === right ? 1 : -1;
      marks.push([x, y + out * gap, x, y + out * (gap + long)]);
      marks.push([x + side * gap, y, x + side * (gap + long), y]);
    }
  }
  return marks;
}

/**
 * 'phone': one page the card's own size, the card filling it. 'print': A4 portrait with
 * the card at ID-1 size (85.6 × 54 mm) near the top, centred, with crop marks.
 */
export async function cardPdf(png: Blob, kind: CardPdfKind, title: string): Promise<Blob> {
  const { PDFDocument, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer("Students' Wing membership card");
  const image = await pdf.embedPng(new Uint8Array(await png.arrayBuffer()));
  if (kind === 'phone') {
    const page = pdf.addPage([CARD_PT.width, CARD_PT.height]);
    page.drawImage(image, { x: 0, y: 0, width: CARD_PT.width, height: CARD_PT.height });
  } else {
    const page = pdf.addPage([A4.width, A4.height]);
    const left = (A4.width - CARD_PT.width) / 2;
    const bottom = A4.height - 30 * POINTS_PER_MM - CARD_PT.height;
    page.drawImage(image, { x: left, y: bottom, width: CARD_PT.width, height: CARD_PT.height });
    for (const [x1, y1, x2, y2] of cropMarks(left, bottom)) {
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5, color: rgb(0, 0, 0) });
    }
  }
  const bytes = await pdf.save();
  return new Blob([bytes as BlobPart], { type: 'application/pdf' });
}
