// The labels of a horizontal bar chart's left axis, fitted to the room the chart can
// give them. nivo draws them right-aligned: a label wider than the margin would lose its
// beginning at the card's edge. A label too long is cut at a grapheme (a Tamil consonant
// keeps its vowel sign or virama) and ends with "…"; the full label is in the card's
// hidden table and the tick's tooltip.

/** Between a label's end and its bar (the axis' tick padding and a little air). */
export const AXIS_LABEL_GAP = 24;
/** The theme's axis tick font size (report-charts.tsx). */
const TICK_FONT_SIZE = 11;
/** Without a canvas (unit tests), a character's width as estimated before. */
const CHARACTER_WIDTH = 8;
const ELLIPSIS = '…';

type Measure = (text: string) => number;

/** The text's width in the axis' font, by a canvas; an estimate where there is none. */
function textMeasure(): Measure {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * CHARACTER_WIDTH;
  context.font = `${TICK_FONT_SIZE}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  return (text) => context.measureText(text).width;
}

/** The longest start of `label`, in whole graphemes and with "…", that is at most `maxWidth` wide. */
function shorten(label: string, maxWidth: number, measure: Measure): string {
  const graphemes = Array.from(
    new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(label),
    (s) => s.segment,
  );
  const cut = (n: number) => graphemes.slice(0, n).join('').trimEnd() + ELLIPSIS;
  // Binary search on the number of graphemes kept: at least one, so the label still starts as it does.
  let low = 1;
  let high = graphemes.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(cut(mid)) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return cut(low);
}

/**
 * The labels fitted to `maxWidth` px, and the width to reserve for them (the widest
 * fitted label, at most `maxWidth`, and the gap to the bars). `measure` is for tests.
 */
export function fitAxisLabels(
  labels: readonly string[],
  maxWidth: number,
  measure: Measure = textMeasure(),
): { labels: string[]; width: number } {
  const fitted = labels.map((label) => (measure(label) <= maxWidth ? label : shorten(label, maxWidth, measure)));
  const widest = Math.max(0, ...fitted.map(measure));
  return { labels: fitted, width: Math.ceil(Math.min(maxWidth, widest)) + AXIS_LABEL_GAP };
}
