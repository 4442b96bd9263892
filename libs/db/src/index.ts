export * from './client';
export * from './migrate';
export * as schema from './schema';
export * from './accounts.repository';
export * from './emails.repository';
