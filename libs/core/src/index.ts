export * from './config';
export * from './errors';
export * from './emails';
export * from './logger';
export * from './plans';
export * from './knowledge';
export * from './sparks';
export * from './rules';
