export * from './week';
export * from './compose';
