export * from './envelope';
export * from './dev';
export * from './auth';
export * from './sparks';
export * from './knowledge';
export * from './objectives';
export * from './markdown';
