import { describe, expect, it } from 'vitest';
import { AXIS_LABEL_GAP, fitAxisLabels } from './axis-labels';

// The unit tier runs in Node: no canvas, so the labels are measured at 8 px a character.

const graphemes = (text: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);

describe('fitAxisLabels', () => {
  it('leaves a label that fits as it is and reserves its width and the gap', () => {
    const { labels, width } = fitAxisLabels(['Chennai'], 146);
    expect(labels).toEqual(['Chennai']);
    expect(width).toBe(7 * 8 + AXIS_LABEL_GAP);
  });

  it('shortens a long Latin label to the width, ending with "…"', () => {
    const long = 'Statewide membership drive for the new academic year';
    const [fitted] = fitAxisLabels([long, 'Madurai'], 146).labels;
    expect(fitted).toMatch(/…$/);
    expect(fitted!.length * 8).toBeLessThanOrEqual(146);
    expect(long.startsWith(fitted!.slice(0, -1))).toBe(true);
  });

  it('shortens a long Tamil label between graphemes, never inside one', () => {
    const long = 'மாநில அளவிலான உறுப்பினர் சேர்க்கை';
    const [fitted] = fitAxisLabels([long], 100).labels;
    expect(fitted).toMatch(/…$/);
    const kept = graphemes(fitted!.slice(0, -1));
    expect(kept.length).toBeGreaterThan(0);
    expect(graphemes(long).slice(0, kept.length)).toEqual(kept);
  });

  it('keeps a consonant with its vowel sign and virama whatever the width', () => {
    const long = 'உறுப்பினர் சேர்க்கை';
    for (let maxWidth = 8; maxWidth <= 160; maxWidth += 4) {
      const [fitted] = fitAxisLabels([long], maxWidth).labels;
      const kept = graphemes(fitted!.replace(/…$/, ''));
      expect(graphemes(long).slice(0, kept.length)).toEqual(kept);
    }
  });

  it('never reserves more than the maximum and the gap', () => {
    const labels = ['A very long campaign name that runs on', 'மாநில அளவிலான உறுப்பினர் சேர்க்கை', 'x'];
    for (const maxWidth of [40, 100, 146]) {
      expect(fitAxisLabels(labels, maxWidth).width).toBeLessThanOrEqual(maxWidth + AXIS_LABEL_GAP);
    }
    // With a measure of its own (as a canvas gives): 6 px a grapheme.
    const measure = (text: string) => graphemes(text).length * 6;
    const { labels: fitted, width } = fitAxisLabels(labels, 100, measure);
    expect(width).toBeLessThanOrEqual(100 + AXIS_LABEL_GAP);
    expect(fitted.every((l) => measure(l) <= 100)).toBe(true);
  });
});
