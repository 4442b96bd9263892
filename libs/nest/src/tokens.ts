/** The process's configuration (`AppConfig`), from `ConfigModule`. */
export const CONFIG = Symbol('CONFIG');
/** The database pool and Drizzle handle (`DbHandle`), from `DatabaseModule`. */
export const DB = Symbol('DB');
/** The process's Redis connection (ioredis `Redis`), from `InfraModule`. */
export const REDIS = Symbol('REDIS');
/** The clock billing reads "now" from (trial end, periods), from `InfraModule`: the system clock, movable in tests. */
export const CLOCK = Symbol('CLOCK');
/** The Stripe client (`Stripe | undefined`: undefined when Stripe is not configured), from `InfraModule`. */
export const STRIPE = Symbol('STRIPE');
/** The file store (`FileStorage`: local directory or S3), from `InfraModule`. */
export const STORAGE = Symbol('STORAGE');
