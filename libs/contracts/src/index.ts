export * from './envelope';
export * from './dev';
export * from './auth';
