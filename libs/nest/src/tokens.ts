/** The process's configuration (`AppConfig`), from `ConfigModule`. */
export const CONFIG = Symbol('CONFIG');
/** The database pool and Drizzle handle (`DbHandle`), from `DatabaseModule`. */
export const DB = Symbol('DB');
