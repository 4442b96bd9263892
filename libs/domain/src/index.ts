export * from './sparks';
export * from './spark-tests';
