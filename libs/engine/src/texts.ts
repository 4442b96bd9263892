import type { Language } from '@sparks/contracts';

/** The product's languages (declared once, in `@sparks/contracts`); the engine's texts are `@sparks/core`'s `t`. */
export type Lang = Language;
