export * from './common';
export * from './emails';
export * from './accounts';
export * from './sparks';
export * from './objectives';
