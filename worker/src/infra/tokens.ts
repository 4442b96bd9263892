export { CONFIG, DB } from '@sparks/nest';
export const REDIS = Symbol('REDIS');
/** The configured language model (`LlmProvider`), or null without `LLM_*`. */
export const LLM = Symbol('LLM');
