// A one-page PDF written by hand (no PDF library in the bundle): a page-sized image and
// vector drawing over it. PDF 1.4, one image XObject (FlateDecode through the browser's
// own CompressionStream), an xref table with byte offsets.

export interface PdfImage {
  readonly width: number;
  readonly height: number;
  /** 'DeviceGray': one byte a pixel; 'DeviceRGB': three. Not yet compressed. */
  readonly colorSpace: 'DeviceGray' | 'DeviceRGB';
  readonly pixels: Uint8Array;
}

/** zlib-wrapped deflate, what PDF's FlateDecode reads. */
export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A PDF text string in UTF-16BE, as hex (any script, ASCII-only file). */
function textString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i += 1) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex.toUpperCase()}>`;
}

/**
 * One page of `width` × `height` points: `image` stretched over the whole page, then
 * `drawing` (content-stream operators, PDF's own units, origin bottom left) over it.
 */
export async function onePagePdf(options: {
  readonly width: number;
  readonly height: number;
  readonly image: PdfImage;
  readonly drawing: string;
  readonly title: string;
}): Promise<Blob> {
  const { width, height, image, title } = options;
  const w = width.toFixed(2);
  const h = height.toFixed(2);
  const pixels = await deflate(image.pixels);
  const content = new TextEncoder().encode(`q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q\n${options.drawing}\n`);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === 'string' ? encoder.encode(part) : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (body: string, stream?: Uint8Array) => {
    offsets.push(length);
    push(`${offsets.length} 0 obj\n${body}\n`);
    if (stream) {
      push('stream\n');
      push(stream);
      push('\nendstream\n');
    }
    push('endobj\n');
  };
  push('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n');
  object('<< /Type /Catalog /Pages 2 0 R >>');
  object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>`,
  );
  object(
    `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /${image.colorSpace} ` +
      `/BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>`,
    pixels,
  );
  object(`<< /Length ${content.length} >>`, content);
  object(`<< /Title ${textString(title)} /Producer (Students' Wing campaigns) >>`);
  const xref = length;
  push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(
    `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R /Info ${offsets.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return new Blob(parts as BlobPart[], { type: 'application/pdf' });
}
