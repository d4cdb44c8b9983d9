import { describe, expect, it } from 'vitest';
import { splitTagged } from './tagged-text';

describe('splitTagged', () => {
  it('cuts a sentence at its tags, keeping the text around them', () => {
    expect(splitTagged('I agree to the <terms>terms</terms> and the <privacy>policy</privacy>.')).toEqual([
      { text: 'I agree to the ' },
      { text: 'terms', tag: 'terms' },
      { text: ' and the ' },
      { text: 'policy', tag: 'privacy' },
      { text: '.' },
    ]);
  });

  it('keeps a sentence that begins with a tag, or has none, whole', () => {
    expect(splitTagged('<terms>விதிமுறைகளையும்</terms> ஏற்கிறேன்')).toEqual([
      { text: 'விதிமுறைகளையும்', tag: 'terms' },
      { text: ' ஏற்கிறேன்' },
    ]);
    expect(splitTagged('no tags')).toEqual([{ text: 'no tags' }]);
  });
});
