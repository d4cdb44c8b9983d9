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
