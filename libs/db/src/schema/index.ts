export * from './common';
export * from './emails';
export * from './accounts';
export * from './sparks';
export * from './objectives';
export * from './deploy';
export * from './admin';
export * from './billing';
