/** The configured language model (`LlmProvider`), or null without `LLM_*`. */
export const LLM = Symbol('LLM');
