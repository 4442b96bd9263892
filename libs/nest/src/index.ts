export * from './tokens';
export * from './config.module';
export * from './database.module';
export * from './domain.module';
export * from './infra.module';
export * from './stripe';
export * from './pino-nest-logger';
