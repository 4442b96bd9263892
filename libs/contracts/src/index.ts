export * from './envelope';
export * from './dev';
