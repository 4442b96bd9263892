export * from './days';
export * from './facts';
export * from './rows';
