import { useEffect, useState } from 'react';

import { OVERLAY_LINGER_MS } from '../rules';

/** The loading overlay's phases: shown while loading, fading for a while after, then gone. */
export type OverlayPhase = 'visible' | 'fading' | 'hidden';

/**
 * docs/product.md §2/§9: the overlay shows while `active` and stays `lingerMs` (0.8 s) after it ends, fading out. Data
 * already in the cache at mount (`active` false from the start) shows no overlay at all.
 */
export function useLingering(active: boolean, lingerMs: number = OVERLAY_LINGER_MS): OverlayPhase {
  const [phase, setPhase] = useState<OverlayPhase>(active ? 'visible' : 'hidden');
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    setPhase(active ? 'visible' : 'fading');
  }

  useEffect(() => {
    if (phase !== 'fading') return;
    const timer = setTimeout(() => setPhase('hidden'), lingerMs);
    return () => clearTimeout(timer);
  }, [phase, lingerMs]);

  return phase;
}
