/** The circular progress indicator of the objectives panel (docs/product.md §2: ring radius 98). */
export const RING_RADIUS = 98;
export const RING_STROKE = 14;
/** The SVG's side: the ring plus its stroke. */
export const RING_BOX = 2 * (RING_RADIUS + RING_STROKE);
export const RING_CIRCUMFERENCE = 2 * Math.PI * RING_RADIUS;

/** A progress as a whole percentage 0–100 (anything else, or nothing, counts as 0 or 100). */
export function toPercent(progress: unknown): number {
  const value = typeof progress === 'number' ? progress : Number(progress);
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(100, Math.max(0, value)));
}

/** The length of the ring drawn for a progress. */
export function ringFilled(progress: unknown): number {
  return (toPercent(progress) / 100) * RING_CIRCUMFERENCE;
}

/** `stroke-dasharray` of the progress circle: the drawn length, then a gap of the whole circumference. */
export function ringDasharray(progress: unknown): string {
  return `${ringFilled(progress).toFixed(2)} ${RING_CIRCUMFERENCE.toFixed(2)}`;
}
