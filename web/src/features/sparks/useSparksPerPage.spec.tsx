import { act, renderHook } from '@testing-library/react';

import { sparksPerPage, useSparksPerPage } from './useSparksPerPage';

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

describe('useSparksPerPage', () => {
  afterEach(() => Object.defineProperty(window, 'innerHeight', { configurable: true, value: 768 }));

  it('follows the window height as it is resized', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 900 });
    const { result, unmount } = renderHook(() => useSparksPerPage());
    expect(result.current).toEqual({ perPage: 4 });
    act(() => resizeTo(649));
    expect(result.current.perPage).toBe(1);
    act(() => resizeTo(927));
    expect(result.current.perPage).toBe(5);
    act(() => resizeTo(775));
    expect(result.current.perPage).toBe(3);
    unmount();
  });
});
