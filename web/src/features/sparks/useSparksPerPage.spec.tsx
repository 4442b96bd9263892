import { act, renderHook } from '@testing-library/react';

import { PINNED_SHOWN, pinnedRows, sparksPerPage, useSparksPerPage } from './useSparksPerPage';

function resizeTo(height: number) {
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
  window.dispatchEvent(new Event('resize'));
}

describe('sparksPerPage (docs/product.md §9)', () => {
  it.each([
    [0, 1],
    [400, 1],
    [649, 1],
    [650, 2],
    [774, 2],
    [775, 3],
    [869, 3],
    [870, 4],
    [926, 4],
    [927, 5],
    [1080, 5],
    [2160, 5],
  ])('a %i px tall window shows %i Sparks per page', (height, count) => {
    expect(sparksPerPage(height)).toBe(count);
  });
});

describe('pinnedRows (docs/product.md §9: 3 rows on system pages, 4 otherwise)', () => {
  it('is 3 on system pages and 4 elsewhere, never above the pinned strip', () => {
    expect(pinnedRows(true)).toBe(3);
    expect(pinnedRows(false)).toBe(4);
    expect(PINNED_SHOWN).toBe(4);
  });
});

describe('useSparksPerPage', () => {
  afterEach(() => Object.defineProperty(window, 'innerHeight', { configurable: true, value: 768 }));

  it('follows the window height as it is resized', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 900 });
    const { result, unmount } = renderHook(() => useSparksPerPage());
    expect(result.current).toEqual({ perPage: 4, pinnedRows: 4 });
    act(() => resizeTo(649));
    expect(result.current.perPage).toBe(1);
    act(() => resizeTo(927));
    expect(result.current.perPage).toBe(5);
    act(() => resizeTo(775));
    expect(result.current.perPage).toBe(3);
    unmount();
  });

  it('gives system pages 3 pinned rows without changing the page size', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 870 });
    const { result, rerender } = renderHook(({ system }) => useSparksPerPage(system), {
      initialProps: { system: true },
    });
    expect(result.current).toEqual({ perPage: 4, pinnedRows: 3 });
    rerender({ system: false });
    expect(result.current).toEqual({ perPage: 4, pinnedRows: 4 });
  });
});
