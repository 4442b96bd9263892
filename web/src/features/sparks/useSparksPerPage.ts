import { useEffect, useState } from 'react';

/**
 * docs/product.md §9, sidebar Sparks per page by window height: under 650 → 1; 650–774 → 2; 775–869 → 3; 870–926 → 4;
 * 927 and up → 5.
 */
export function sparksPerPage(height: number): number {
  if (height < 650) return 1;
  if (height < 775) return 2;
  if (height < 870) return 3;
  if (height < 927) return 4;
  return 5;
}

const windowHeight = () => (typeof window === 'undefined' ? 900 : window.innerHeight);

/** The recent Sparks page size, following the window height (resize listener). */
export function useSparksPerPage(): { perPage: number } {
  const [perPage, setPerPage] = useState(() => sparksPerPage(windowHeight()));
  useEffect(() => {
    const onResize = () => setPerPage(sparksPerPage(windowHeight()));
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return { perPage };
}
