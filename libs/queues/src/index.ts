export * from './queues';
export * from './redis';
export * from './producer';
export * from './consumer';
export * from './events';
export * from './connection';
export * from './schedulers';
export * from './purge';
