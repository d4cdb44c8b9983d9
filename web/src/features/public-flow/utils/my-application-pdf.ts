import { whitePage, wrapWords } from '../../../lib/canvas-text';
import { CANVAS_TAMIL_FAMILY, loadCanvasTamilFonts } from '../../../lib/tamil-canvas-font';
import type { Section } from './my-application-rows';

// The applicant's copy of "My application" as a PDF, in their language (issue 21). Tamil
// needs shaping that no PDF writer of ours does, so each A4 page is drawn by the browser
// on a canvas in the self-hosted Noto Sans Tamil (lib/tamil-canvas-font.ts) and embedded
// as an image by pdf-lib (fetched with the first PDF asked for). 150 dpi: sharp on paper
// and on a phone, about 100 KB a page.

const A4 = { width: 595.28, height: 841.89 } as const;
const SCALE = 150 / 72;
const MARGIN = 48;
const WIDTH = A4.width - 2 * MARGIN;
const LABEL_WIDTH = 170;

interface Line {
  readonly text: string;
  readonly size: number;
  readonly weight: 400 | 700;
  /** Points from the margin. */
  readonly indent: number;
  /** Space above, points. */
  readonly gap: number;
}

const fontOf = (line: Pick<Line, 'size' | 'weight'>) =>
  `${line.weight} ${line.size * SCALE}px "${CANVAS_TAMIL_FAMILY}"`;
const lineHeight = (line: Line) => line.size * 1.5 + line.gap;

function wrapped(context: CanvasRenderingContext2D, line: Line, width: number): Line[] {
  context.font = fontOf(line);
  return wrapWords(context, line.text, width * SCALE).map((text, i) => ({
    ...line,
    text,
    gap: i === 0 ? line.gap : 0,
  }));
}

/** A row: its label on the left, its value wrapped beside it; or the value alone across the page. */
function rowLines(context: CanvasRenderingContext2D, label: string, value: string): Line[][] {
  const valueLine = { text: value, size: 10.5, weight: 400, indent: label ? LABEL_WIDTH : 0, gap: 0 } as const;
  const values = wrapped(context, valueLine, label ? WIDTH - LABEL_WIDTH : WIDTH);
  if (!label) return [values.map((line, i) => ({ ...line, gap: i === 0 ? 5 : 0 }))];
  const labels = wrapped(context, { text: label, size: 10.5, weight: 700, indent: 0, gap: 0 }, LABEL_WIDTH - 10);
  // Label and value side by side: the taller decides the row's height.
  const rows: Line[] = [];
  for (let i = 0; i < Math.max(labels.length, values.length); i += 1) {
    const gap = i === 0 ? 5 : 0;
    rows.push({ ...(labels[i] ?? { ...valueLine, text: '' }), gap, indent: 0 });
    if (values[i]) rows.push({ ...(values[i] as Line), gap: -1 });
  }
  return [rows];
}

/** Every line of the copy; a line with gap -1 shares the baseline of the line before it. */
function lines(context: CanvasRenderingContext2D, title: string, madeOn: string, sections: readonly Section[]): Line[] {
  const out: Line[] = [
    ...wrapped(context, { text: title, size: 17, weight: 700, indent: 0, gap: 0 }, WIDTH),
    ...wrapped(context, { text: madeOn, size: 9.5, weight: 400, indent: 0, gap: 2 }, WIDTH),
  ];
  for (const section of sections) {
    out.push(...wrapped(context, { text: section.heading, size: 13, weight: 700, indent: 0, gap: 16 }, WIDTH));
    for (const row of section.rows) out.push(...rowLines(context, row.label, row.value).flat());
  }
  return out;
}

const blankPage = () => whitePage(A4.width, A4.height, SCALE, '#1c1917');

/** The lines laid out on as many A4 canvases as they need. */
async function drawPages(title: string, madeOn: string, sections: readonly Section[]): Promise<HTMLCanvasElement[]> {
  await loadCanvasTamilFonts();
  const pages = [blankPage()];
  const all = lines(pages[0]!.context, title, madeOn, sections);
  let y = MARGIN;
  let baseline = 0;
  for (const line of all) {
    let page = pages.at(-1)!;
    if (line.gap !== -1) {
      if (y + lineHeight(line) > A4.height - MARGIN) {
        page = blankPage();
        pages.push(page);
        y = MARGIN;
      }
      y += line.gap;
      baseline = y + line.size * 1.2;
      y += line.size * 1.5;
    }
    page.context.font = fontOf(line);
    page.context.fillText(line.text, (MARGIN + line.indent) * SCALE, baseline * SCALE);
  }
  return pages.map((page) => page.canvas);
}

const pngOf = (canvas: HTMLCanvasElement) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png'),
  );

/** The copy as a PDF of A4 pages. */
export async function myApplicationPdf(title: string, madeOn: string, sections: readonly Section[]): Promise<Blob> {
  const [{ PDFDocument }, canvases] = await Promise.all([import('pdf-lib'), drawPages(title, madeOn, sections)]);
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer("Students' Wing membership");
  for (const canvas of canvases) {
    const image = await pdf.embedPng(new Uint8Array(await (await pngOf(canvas)).arrayBuffer()));
    pdf.addPage([A4.width, A4.height]).drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
  }
  return new Blob([(await pdf.save()) as BlobPart], { type: 'application/pdf' });
}
