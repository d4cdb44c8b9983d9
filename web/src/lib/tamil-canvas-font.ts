import latin400 from '@fontsource/noto-sans-tamil/files/noto-sans-tamil-latin-400-normal.woff2?url';
import latin700 from '@fontsource/noto-sans-tamil/files/noto-sans-tamil-latin-700-normal.woff2?url';
import tamil400 from '@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-400-normal.woff2?url';
import tamil700 from '@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-700-normal.woff2?url';

// Tamil needs shaping (vowel signs before their consonant, conjuncts such as க்ஷ,
// ligatures) that no PDF writer of ours does: the browser's own text engine does it when
// lines are drawn on a canvas in the self-hosted Noto Sans Tamil. A canvas draws with
// whatever face is ready at that moment (a fallback font gives boxes or unshaped
// letters), so the faces are loaded explicitly and awaited before any drawing. Used by
// the campaign poster and the member's card (features do not import each other).

/** The family name the canvases draw with (its own name: the page's CSS face may not be loaded). */
export const CANVAS_TAMIL_FAMILY = 'Canvas Noto Sans Tamil';
const TAMIL_RANGE = 'U+0964-0965, U+0B82-0BFA, U+200C-200D, U+20B9, U+25CC';
const LATIN_RANGE = 'U+0000-00FF, U+0131, U+0152-0153, U+2000-206F, U+20AC, U+2122, U+2212';

let fontsLoaded: Promise<void> | undefined;

/** Tamil and Latin subsets of Noto Sans Tamil, regular and bold, once per page. */
export function loadCanvasTamilFonts(): Promise<void> {
  fontsLoaded ??= Promise.all(
    [
      [tamil400, '400', TAMIL_RANGE],
      [tamil700, '700', TAMIL_RANGE],
      [latin400, '400', LATIN_RANGE],
      [latin700, '700', LATIN_RANGE],
    ].map(async ([url, weight, unicodeRange]) => {
      const face = new FontFace(CANVAS_TAMIL_FAMILY, `url(${url})`, { weight, unicodeRange });
      document.fonts.add(await face.load());
    }),
  ).then(
    () => undefined,
    (error: unknown) => {
      fontsLoaded = undefined;
      throw error;
    },
  );
  return fontsLoaded;
}
