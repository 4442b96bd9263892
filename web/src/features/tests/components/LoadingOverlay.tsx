import type { OverlayPhase } from '../hooks/useLingering';
import { useTestsT } from '../i18n';

/**
 * docs/product.md §2 loading overlay over the test page: a spinner and "Loading…" while the Spark and its tests load,
 * fading out over the 0.8 s it stays afterwards (it no longer catches clicks then).
 */
export function LoadingOverlay({ phase }: { phase: OverlayPhase }) {
  const t = useTestsT();
  if (phase === 'hidden') return null;
  const fading = phase === 'fading';
  return (
    <div
      className={fading ? 'test-overlay test-overlay--fading' : 'test-overlay'}
      role={fading ? undefined : 'status'}
      aria-live={fading ? undefined : 'polite'}
      aria-hidden={fading || undefined}
      data-testid="test-loading-overlay"
    >
      <span className="spinner test-overlay__spinner" aria-hidden="true" />
      <span className="test-overlay__text">{t('page.loading')}</span>
    </div>
  );
}
