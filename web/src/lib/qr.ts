// A QR code: one matrix (from the `qrcode` module, loaded only with the screens that show
// one: the Campaigns page, the member's card), drawn as SVG for the screen and the
// download, as PNG through a canvas, as rectangles in the poster's PDF and on the card's
// canvas, so that every copy is the same code. Shared in lib/ because features do not
// import each other.

export interface QrMatrix {
  /** Modules on a side (without the quiet zone). */
  readonly size: number;
  /** Row by row, 1 for a dark module. */
  readonly data: Uint8Array;
}

/** The quiet zone the QR specification asks for: 4 modules on each side. */
export const QR_MARGIN = 4;

/** The link's QR matrix, error correction level M (15 %: a poster survives a crease). */
export async function qrMatrix(text: string): Promise<QrMatrix> {
  const QRCode = await import('qrcode');
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, data: modules.data };
}

/** Each horizontal run of dark modules as [x, y, length], for a compact path. */
export function darkRuns(matrix: QrMatrix): [number, number, number][] {
  const runs: [number, number, number][] = [];
  for (let y = 0; y < matrix.size; y += 1) {
    let x = 0;
    while (x < matrix.size) {
      if (!matrix.data[y * matrix.size + x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < matrix.size && matrix.data[y * matrix.size + x]) x += 1;
      runs.push([start, y, x - start]);
    }
  }
  return runs;
}

/** The code as a standalone SVG document, one unit a module, white quiet zone included. */
export function qrSvg(matrix: QrMatrix, title: string): string {
  const side = matrix.size + 2 * QR_MARGIN;
  const path = darkRuns(matrix)
    .map(([x, y, w]) => `M${x + QR_MARGIN} ${y + QR_MARGIN}h${w}v1h-${w}z`)
    .join('');
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<title>${escaped}</title><rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path fill="#000" d="${path}"/></svg>`
  );
}

/** The code as a PNG, `scale` pixels a module (about 10 cm at 300 dpi for 30 modules and 12). */
export function qrPng(matrix: QrMatrix, scale = 12): Promise<Blob> {
  const side = (matrix.size + 2 * QR_MARGIN) * scale;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no 2d canvas'));
  context.fillStyle = '#fff';
  context.fillRect(0, 0, side, side);
  context.fillStyle = '#000';
  for (const [x, y, w] of darkRuns(matrix)) {
    context.fillRect((x + QR_MARGIN) * scale, (y + QR_MARGIN) * scale, w * scale, scale);
  }
  return new Promise((done, fail) =>
    canvas.toBlob((blob) => (blob ? done(blob) : fail(new Error('no PNG'))), 'image/png'),
  );
}

/** Offers a file to the browser's downloads. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
