/** A translated sentence cut at its <name>…</name> tags, so that a part can become a link. */
export interface TextPart {
  readonly text: string;
  /** The tag around this part, if any. */
  readonly tag?: string;
}

/** 'I agree to the <terms>terms</terms>.' -> [{ text: 'I agree to the ' }, { text: 'terms', tag: 'terms' }, { text: '.' }] */
export function splitTagged(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: match[2] ?? '', tag: match[1] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
