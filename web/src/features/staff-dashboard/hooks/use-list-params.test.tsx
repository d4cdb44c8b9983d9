// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useListParams } from './use-list-params';

// The dashboard's filters and rows per page live in the address bar: two changes made
// before the page renders again (Apply, then the rows per page at once) must keep both.

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/admin?status=pending&size=10']}>{children}</MemoryRouter>
);

function render() {
  return renderHook(() => ({ nav: useListParams(), location: useLocation() }), { wrapper });
}

describe('useListParams', () => {
  it('keeps the filters just applied when the rows per page change before the next render', () => {
    const { result } = render();
    const { nav } = result.current;
    expect(nav.params.filters).toEqual({ status: 'pending' });
    act(() => {
      // Both from the same render's functions, as two quick events would call them.
      nav.applyFilters({ q: 'meena' });
      nav.setPageSize(50);
    });
    expect(result.current.nav.params).toMatchObject({ filters: { q: 'meena' }, pageSize: 50, page: 1 });
    expect(result.current.location.search).not.toContain('status');
  });

  it('keeps the rows per page just chosen when filters are applied before the next render', () => {
    const { result } = render();
    const { nav } = result.current;
    act(() => {
      nav.setPageSize(20);
      nav.applyFilters({ district: 'Salem' });
    });
    expect(result.current.nav.params).toMatchObject({ filters: { district: 'Salem' }, pageSize: 20 });
  });
});
