/**
 * The product rules written once in `@sparks/contracts` (rules.ts), re-exported for the libs that
 * depend on core only (db, knowledge).
 */
export { textSearchConfig, type TextSearchConfig } from '@sparks/contracts';
