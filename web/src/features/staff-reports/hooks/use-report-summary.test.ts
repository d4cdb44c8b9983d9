import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { summaryError } from './use-report-summary';

describe('summaryError', () => {
  it('keeps the date field codes the page explains itself', () => {
    const error = new ApiError('VALIDATION_FAILED', 400, 'Invalid', { fields: { to: 'RANGE_INVALID' } });
    expect(summaryError(error)).toEqual({ field: 'RANGE_INVALID' });
  });

  it("keeps the code, never the server's English message, for the page to translate", () => {
    const error = new ApiError('INTERNAL', 500, 'Something went wrong on our side.');
    expect(summaryError(error)).toEqual({ code: 'INTERNAL' });
    expect(JSON.stringify(summaryError(new Error('fetch failed')))).not.toContain('fetch failed');
  });
});
