export * from './answer-engine';
export * from './composer';
export * from './llm';
export * from './retrieval';
export * from './texts';
