import { ACTIVE_SPARK_KEY, clearActiveSparkId, cookieString, readActiveSparkId, setActiveSparkId } from './activeSpark';

describe('active Spark (docs/product.md §3: localStorage and cookie activeSparkId)', () => {
  beforeEach(() => {
    localStorage.clear();
    clearActiveSparkId();
  });

  it('is stored in localStorage and in a cookie, and cleared from both', () => {
    setActiveSparkId('spark-1');
    expect(localStorage.getItem(ACTIVE_SPARK_KEY)).toBe('spark-1');
    expect(document.cookie).toContain('activeSparkId=spark-1');
    expect(readActiveSparkId()).toBe('spark-1');

    clearActiveSparkId();
    expect(localStorage.getItem(ACTIVE_SPARK_KEY)).toBeNull();
    expect(document.cookie).not.toContain('activeSparkId=spark-1');
    expect(readActiveSparkId()).toBeNull();
  });

  it('writes the cookie Secure when the app is served over https', () => {
    expect(cookieString(ACTIVE_SPARK_KEY, 's', 60, true)).toBe(
      'activeSparkId=s; path=/; max-age=60; samesite=lax; secure',
    );
    expect(cookieString(ACTIVE_SPARK_KEY, 's', 60, false)).not.toContain('secure');
  });

  it('falls back to the cookie when the storage was cleared', () => {
    setActiveSparkId('spark-2');
    localStorage.clear();
    expect(readActiveSparkId()).toBe('spark-2');
  });
});
