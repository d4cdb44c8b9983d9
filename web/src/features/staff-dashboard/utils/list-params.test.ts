import { describe, expect, it } from 'vitest';
import {
  apiQuery,
  type ListParams,
  listParamsToSearch,
  pageCount,
  parseListParams,
  readCursorStack,
} from './list-params';

const parse = (query: string) => parseListParams(new URLSearchParams(query));

describe('dashboard state in the address bar', () => {
  it('round-trips filters, rows per page, the page and its cursor', () => {
    const params: ListParams = {
      filters: { q: 'kavya raman', status: 'under_review', district: 'Madurai', from: '2026-11-01', to: '2026-11-20' },
      pageSize: 50,
      page: 3,
      cursor: 'eyJwayI6IkFQUCMxIn0',
    };
    const search = listParamsToSearch(params);
    expect(search.toString()).toBe(
      'q=kavya+raman&status=under_review&district=Madurai&from=2026-11-01&to=2026-11-20&size=50&page=3&cursor=eyJwayI6IkFQUCMxIn0',
    );
    expect(parse(search.toString())).toEqual(params);
  });

  it('leaves the defaults out: page 1, 10 rows, no filter is an empty query', () => {
    expect(listParamsToSearch({ filters: {}, pageSize: 10, page: 1 }).toString()).toBe('');
    expect(parse('')).toEqual({ filters: {}, pageSize: 10, page: 1 });
  });

  it('drops what does not parse instead of failing', () => {
    expect(parse('status=closed&district=Atlantis&from=2026-02-30&to=yesterday&size=7&page=x')).toEqual({
      filters: {},
      pageSize: 10,
      page: 1,
    });
    // A range the wrong way round is no range.
    expect(parse('from=2026-11-20&to=2026-11-01').filters).toEqual({});
    // A later page without its cursor starts again.
    expect(parse('page=4')).toMatchObject({ page: 1 });
    expect(parse('page=4').cursor).toBeUndefined();
    // Search is trimmed; blank search is none.
    expect(parse('q=%20%20').filters).toEqual({});
    expect(parse('q=%20meena%20').filters).toEqual({ q: 'meena' });
  });

  it('asks the API with the same filters and the page size', () => {
    expect(apiQuery({ status: 'approved', district: 'Salem' }, 20)).toBe('status=approved&district=Salem&pageSize=20');
    expect(apiQuery({ q: 'a&b' }, 1000, 'c1')).toBe('q=a%26b&pageSize=1000&cursor=c1');
  });

  it('keeps the cursors of the earlier pages only when they match the page', () => {
    expect(readCursorStack({ cursors: ['', 'c2'] }, 3)).toEqual(['', 'c2']);
    expect(readCursorStack({ cursors: ['', 'c2'] }, 4)).toBeUndefined();
    expect(readCursorStack(null, 2)).toBeUndefined();
    expect(readCursorStack({ cursors: [1] }, 2)).toBeUndefined();
  });

  it('counts pages: at least one, rounding up', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(100_000, 100)).toBe(1000);
  });
});
