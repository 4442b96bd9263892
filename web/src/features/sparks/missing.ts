import { isApiError } from '../../api/client';

/**
 * Whether a failed read of a Spark (or of its tests) means "there is no such Spark for this user" (docs/decisions.md,
 * 2026-11-24: deleted, mistyped, or another user's): 404, or 400 — the only thing a GET of /sparks/{id} can get wrong
 * is the id itself, so a mistyped one (not a UUID) gets the same "Spark not found" page as a deleted one.
 */
export function isSparkMissing(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}
