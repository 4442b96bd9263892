import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/**
 * Every setting the api and the worker read, with its default. The README's configuration table
 * is written from this schema; keep them together.
 */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    APP_URL: optionalString,
    DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
    REDIS_URL: z.string().min(1, 'REDIS_URL is required'),
    QUEUE_PREFIX: z.string().default('sparks'),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    JSON_BODY_LIMIT: z.string().default('1mb'),
    DEV_OUTBOX: bool,
    SMTP_URL: optionalString,
    MAIL_FROM: z.string().default('Sparks <no-reply@sparks.local>'),
    WEB_DIST: optionalString,
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(9000),
  })
  .transform((c) => ({
    ...c,
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
    // The outbox exists to read mail that is not really sent; with SMTP configured it stays off.
    DEV_OUTBOX: c.DEV_OUTBOX && !c.SMTP_URL,
  }));

export type AppConfig = z.output<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
