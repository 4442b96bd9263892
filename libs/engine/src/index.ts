export * from './answer-engine';
export * from './composer';
export * from './llm';
export * from './retrieval';
export * from './search-port';
export * from './texts';
export * from './flows/index';
export * from './help';
