import { describe, expect, it } from 'vitest';
import { constituencyName } from './format';

describe('constituency names in the details', () => {
  it('names the district with a Tamil name two districts share (docs/TAMIL.md)', () => {
    expect(constituencyName('Salem', 'Attur', 'ta')).toBe('ஆத்தூர் (சேலம்)');
    expect(constituencyName('Dindigul', 'Athoor', 'ta')).toBe('ஆத்தூர் (திண்டுக்கல்)');
    expect(constituencyName('Salem', 'Attur', 'en')).toBe('Attur');
    expect(constituencyName('Madurai', 'Melur', 'ta')).toBe('மேலூர்');
  });

  it('shows R.K. Nagar by the name people know it by too', () => {
    expect(constituencyName('Chennai', 'Dr. Radhakrishnan Nagar', 'ta')).toBe('ராதாகிருஷ்ணன் நகர் (ஆர்.கே.)');
    expect(constituencyName('Chennai', 'Dr. Radhakrishnan Nagar', 'en')).toBe('Dr. Radhakrishnan Nagar (R.K. Nagar)');
  });
});
