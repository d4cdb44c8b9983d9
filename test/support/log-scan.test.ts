import { describe, expect, it } from 'vitest';
import { findLeaks } from './log-scan';

describe('log scan', () => {
  const secrets = { phones: ['919876543210'], codes: ['482913'] };
  it('finds full numbers with or without the prefix, and codes', () => {
    expect(findLeaks('{"phone":"919876543210"}', secrets)).toEqual(['phone number on log line 1']);
    expect(findLeaks('ok\n{"to":"9876543210"}', secrets)).toEqual(['phone number on log line 2']);
    expect(findLeaks('{"msg":"code 482913 sent"}', secrets)).toEqual(['code on log line 1']);
  });
  it('lets masked numbers and longer digit runs pass', () => {
    expect(findLeaks('{"phone":"91XXXXXX3210","t":14829130}', secrets)).toEqual([]);
  });
});
