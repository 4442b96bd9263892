export * from './client';
export * from './migrate';
export * as schema from './schema';
export * from './accounts.repository';
export * from './emails.repository';
export * from './sparks.repository';
export * from './conversations.repository';
export * from './wire';
