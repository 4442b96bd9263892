import { act, renderHook } from '@testing-library/react';

import { useLingering } from './useLingering';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('useLingering (docs/product.md §9: the overlay stays 0.8 s after loading)', () => {
  it('shows while loading, fades for 0.8 s after, then hides', () => {
    const { result, rerender } = renderHook(({ active }) => useLingering(active), { initialProps: { active: true } });
    expect(result.current).toBe('visible');

    rerender({ active: false });
    expect(result.current).toBe('fading');

    act(() => jest.advanceTimersByTime(799));
    expect(result.current).toBe('fading');
    act(() => jest.advanceTimersByTime(1));
    expect(result.current).toBe('hidden');
  });

  it('comes back when loading starts again during the fade', () => {
    const { result, rerender } = renderHook(({ active }) => useLingering(active), { initialProps: { active: true } });
    rerender({ active: false });
    act(() => jest.advanceTimersByTime(400));
    rerender({ active: true });
    expect(result.current).toBe('visible');
    act(() => jest.advanceTimersByTime(2000));
    expect(result.current).toBe('visible');
  });

  it('shows nothing when the data was already there', () => {
    const { result } = renderHook(() => useLingering(false));
    expect(result.current).toBe('hidden');
  });
});
