import { describe, expect, it } from 'vitest';
import {
  type ListParams,
  listParamsToSearch,
  listRequest,
  pageCount,
  parseListParams,
  readCursorStack,
} from './list-params';

const parse = (query: string, state?: unknown) => parseListParams(new URLSearchParams(query), state);

describe('dashboard state in the address bar', () => {
  it('round-trips filters, rows per page, the page and its cursor; the search term through the history state only', () => {
    const params: ListParams = {
      filters: {
        q: 'Kavya Raman 98765 43210',
        status: 'under_review',
        district: 'Madurai',
        from: '2026-11-01',
        to: '2026-11-20',
      },
      pageSize: 50,
      page: 3,
      cursor: 'eyJwayI6IkFQUCMxIn0',
    };
    const search = listParamsToSearch(params);
    expect(search.toString()).toBe(
      'status=under_review&district=Madurai&from=2026-11-01&to=2026-11-20&size=50&page=3&cursor=eyJwayI6IkFQUCMxIn0',
    );
    expect(parse(search.toString(), { q: 'Kavya Raman 98765 43210' })).toEqual(params);
  });

  it('never puts the search term in the address, whatever it holds', () => {
    for (const q of ['meena', '98765 43210', '+91 86846-13282', 'a&q=b', 'கவியா']) {
      const search = listParamsToSearch({ filters: { q }, pageSize: 10, page: 2, cursor: 'c2' }).toString();
      expect(search).toBe('page=2&cursor=c2');
      expect(decodeURIComponent(search)).not.toContain(q);
    }
    // An old link with a search term in it is no search.
    expect(parse('q=meena&status=approved').filters).toEqual({ status: 'approved' });
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
    expect(parse('', { q: '  ' }).filters).toEqual({});
    expect(parse('', { q: ' meena ' }).filters).toEqual({ q: 'meena' });
    expect(parse('', { q: 7 }).filters).toEqual({});
  });

  it('asks the API in a request body with the same filters and the page size', () => {
    expect(listRequest({ filters: { status: 'approved', district: 'Salem' }, pageSize: 20 })).toEqual({
      filters: { status: 'approved', district: 'Salem' },
      pageSize: 20,
    });
    expect(listRequest({ filters: { q: 'a&b' }, pageSize: 1000, cursor: 'c1', exportId: 'e1' })).toEqual({
      filters: { q: 'a&b' },
      pageSize: 1000,
      cursor: 'c1',
      exportId: 'e1',
    });
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
