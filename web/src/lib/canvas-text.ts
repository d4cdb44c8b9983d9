/**
 * `text` broken at spaces into lines no wider than `width` canvas pixels, in the context's
 * current font (a word longer than a line stays whole). The campaign poster and the
 * applicant's PDF copy draw with it.
 */
export function wrapWords(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = out.at(-1);
    if (last !== undefined && context.measureText(`${last} ${word}`).width <= width)
      out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}

/** A white canvas of `width` × `height` points at `scale` pixels a point, ink set to `ink` (the poster's and the PDF copy's pages). */
export function whitePage(
  width: number,
  height: number,
  scale: number,
  ink: string,
): { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = ink;
  return { canvas, context };
}
