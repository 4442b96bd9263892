export * from './sparks';
export * from './spark-tests';
export * from './plans';
export * from './billing/index';
export * from './account-export/index';
export * from './digest/index';
export * from './document-intake';
