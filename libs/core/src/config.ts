import { randomBytes } from 'node:crypto';
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
 * Space-separated OAuth scopes (`fallback` when unset or blank), spaces normalised. `offline_access` must be among
 * them: without a refresh token a connection would stop working when its first access token expires.
 */
const scopeList = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim().split(/\s+/).join(' ') : fallback))
    .refine((v) => v.split(' ').includes('offline_access'), {
      message: 'must include offline_access (without it a connection cannot be refreshed and stops within the hour)',
    });

/** The bytes of an `INTEGRATION_TOKEN_KEY` (64 hex digits or base64 of 32 bytes), or undefined. */
export function tokenKeyBytes(value: string): Buffer | undefined {
  const v = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(v)
    ? Buffer.from(v, 'hex')
    : /^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(v)
      ? Buffer.from(v, 'base64')
      : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

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
    /** The api's Redis commands fail after this long (a frozen Redis answers 503, not a hang). */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).default(2000),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    JSON_BODY_LIMIT: z.string().default('1mb'),
    DEV_OUTBOX: bool,
    SMTP_URL: optionalString,
    MAIL_FROM: z.string().default('Sparks <no-reply@sparks.local>'),
    WEB_DIST: optionalString,
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(9000),
    /**
     * How long the api keeps an idle HTTP/1.1 connection. Longer than the clients' and proxies' own
     * idle timeouts (60 s for most load balancers), so that a pool never reuses a socket the server is closing.
     */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(65_000),
    /** Where uploaded documents live: `local` disk (default) or an S3-compatible store (default when S3_BUCKET is set). */
    STORAGE_DRIVER: z.enum(['local', 's3']).optional(),
    /** Folder of the local-disk store (relative paths are from the working directory). */
    STORAGE_DIR: z.string().default('.data/uploads'),
    /** Where an upload streams to before it is checked and stored (default: inside STORAGE_DIR, or the OS temp dir for S3). */
    UPLOAD_TMP_DIR: optionalString,
    /** An upload that sends nothing for this long is answered 408 and its temp file removed. */
    UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: bool,
    S3_PREFIX: z.string().default(''),
    /** Documents ingested at once per worker process (each in its own thread with its own memory cap). */
    INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** `usage.record` jobs a worker takes at once; those waiting while a batch is recorded make the next one. */
    USAGE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(500),
    INGEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
    /** Whole-job limit of an ingestion (download, reading, indexing); default: twice INGEST_TIMEOUT_MS. */
    INGEST_JOB_TIMEOUT_MS: z.coerce.number().int().min(200).optional(),
    INGEST_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(512),
    INGEST_MAX_PAGES: z.coerce.number().int().min(1).default(2000),
    INGEST_MAX_CHARS: z.coerce.number().int().min(1000).default(5_000_000),
    /** BullMQ job lock: a job whose worker died is handed to another after about this long. */
    WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).default(30_000),
    WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
    JWT_SECRET: optionalString,
    /**
     * `test-minimal` hashes new passwords at argon2's lowest cost, for test runs that make many users. Honoured
     * only with NODE_ENV=test: anywhere else it is ignored and the standard cost applies.
     */
    PASSWORD_HASH_COST: z.enum(['standard', 'test-minimal']).default('standard'),
    /** Express 'trust proxy': set it (e.g. 1, or loopback) only behind a reverse proxy you run. */
    TRUST_PROXY: optionalString,
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
    DNS_CHECK: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    DNS_SERVERS: optionalString,
    DNS_CANARY_DOMAIN: z.string().default('example.com'),
    /** Website widget (public API): lifetime of a visitor token, and the per-minute rate limits. */
    VISITOR_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(3600),
    WIDGET_RATE_VISITOR_MAX: z.coerce.number().int().min(1).default(20),
    WIDGET_RATE_IP_MAX: z.coerce.number().int().min(1).default(120),
    WIDGET_RATE_TOKEN_MAX: z.coerce.number().int().min(1).default(1200),
    /** New website visitors (a visitor token not renewing one) per client IP and hour, and per published Spark. */
    WIDGET_NEW_VISITORS_IP_HOUR: z.coerce.number().int().min(1).default(20),
    WIDGET_NEW_VISITORS_TOKEN_HOUR: z.coerce.number().int().min(1).default(1000),
    AUTH_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    AUTH_RATE_ACCOUNT_MAX: z.coerce.number().int().min(1).default(10),
    AUTH_RATE_IP_MAX: z.coerce.number().int().min(1).default(100),
    /** Failed logins on one account from every IP together; past it only IPs it signed in from before may try. */
    AUTH_RATE_LOGIN_ACCOUNT_MAX: z.coerce.number().int().min(1).default(50),
    RATE_LIMIT_NAMESPACE: z.string().default('rl'),
    LLM_BASE_URL: optionalString,
    LLM_API_KEY: optionalString,
    LLM_MODEL: z.string().default('gpt-4o-mini'),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
    /** How long a JSON chat call waits for its reply (spec: 300 s). */
    REPLY_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    GOOGLE_AUTHORIZATION_URL: z.string().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: z.string().default('https://www.googleapis.com/oauth2/v4/token'),
    GOOGLE_USERINFO_URL: z.string().default('https://www.googleapis.com/oauth2/v3/userinfo'),
    /** Comma-separated e-mails of the admins (besides those granted with `npm run admin -- grant`). None by default. */
    ADMIN_EMAILS: optionalString,
    /** Where users ask for help (a disabled account is told to write here); unset: they are told to ask the server's administrator. */
    SUPPORT_EMAIL: optionalString.pipe(z.email('SUPPORT_EMAIL must be an e-mail address').optional()),
    /**
     * The owner's data (issue 30): an account whose files and messages weigh up to this many bytes gets its export
     * zipped while the browser waits; a larger one is built by the worker and its link e-mailed.
     */
    EXPORT_INLINE_MAX_BYTES: z.coerce.number().int().min(0).default(20_000_000),
    /** The operator's own privacy policy (a page sign-up links to); unset: the app's built-in page at /privacy. */
    PRIVACY_POLICY_URL: optionalString.pipe(
      z.url({ protocol: /^https?$/, error: 'PRIVACY_POLICY_URL must be an http(s) address' }).optional(),
    ),
    /** Lifetime of the admin pages' session cookie (Bull Board). */
    /** Bearer token of the api's GET /metrics and the worker's metrics port; unset: no metrics are served. */
    METRICS_TOKEN: optionalString,
    /** Port of the worker's own /metrics (job durations, wait times, ingestion pages); unset: none. */
    WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    ADMIN_SESSION_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
    /** Stripe's secret key; unset: the local test-payment provider (the embedded default). */
    STRIPE_SECRET_KEY: optionalString,
    /** Signing secret of the Stripe webhook endpoint (`whsec_…`); required with STRIPE_SECRET_KEY. */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Another address for Stripe's API (a test server), e.g. `http://127.0.0.1:12111`. */
    STRIPE_API_BASE: optionalString.pipe(z.url().optional()),
    /** Event name of the Stripe billing meter that overage interactions are reported to. */
    STRIPE_METER_EVENT_NAME: z
      .string()
      .regex(/^[a-z0-9_]{1,100}$/, 'lower-case letters, digits and _')
      .default('sparks_overage_interactions'),
    /**
     * Document sharing (issue 20): SharePoint and OneDrive through Microsoft Graph, with an app registered in
     * Microsoft Entra. On only when the client id, its secret and the token key are all set.
     */
    MICROSOFT_CLIENT_ID: optionalString,
    MICROSOFT_CLIENT_SECRET: optionalString,
    /** `organizations` (any work or school account), `common`, `consumers` or one directory's id or domain. */
    MICROSOFT_TENANT: z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,100}$/, 'a tenant id, a domain, organizations, common or consumers')
      .default('organizations'),
    MICROSOFT_LOGIN_URL: z.string().url().default('https://login.microsoftonline.com'),
    MICROSOFT_GRAPH_URL: z.string().url().default('https://graph.microsoft.com/v1.0'),
    /**
     * The delegated scopes asked for per service (least privilege): a OneDrive connection reads only the user's own
     * files; a SharePoint one browses the sites the user can open. Overridable (a national cloud's resource-qualified
     * names); `offline_access` is required, or the connection could not be refreshed.
     */
    MICROSOFT_ONEDRIVE_SCOPES: scopeList('offline_access Files.Read'),
    MICROSOFT_SHAREPOINT_SCOPES: scopeList('offline_access Files.Read.All Sites.Read.All'),
    /** Replaced by the two above: refused, so that an old override is not silently ignored. */
    MICROSOFT_SCOPES: optionalString.refine((v) => v === undefined, {
      message: 'was replaced by MICROSOFT_ONEDRIVE_SCOPES and MICROSOFT_SHAREPOINT_SCOPES (one per service)',
    }),
    /** Host suffixes Graph may send file downloads to (its pre-authenticated links), comma-separated. */
    MICROSOFT_DOWNLOAD_HOSTS: z.string().default('sharepoint.com'),
    /**
     * How often each connection's files are synchronised with Graph's delta query (the `integration.sync`
     * job scheduler of the connection), in seconds.
     */
    INTEGRATION_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
    /** 32 bytes, base64 or hex: the AES-256-GCM key the connections' tokens are encrypted with at rest. */
    INTEGRATION_TOKEN_KEY: optionalString.refine((v) => v === undefined || tokenKeyBytes(v) !== undefined, {
      message: 'must be 32 bytes written as 64 hex digits or in base64 (openssl rand -base64 32)',
    }),
  })
  .refine((c) => !c.STRIPE_SECRET_KEY || !!c.STRIPE_WEBHOOK_SECRET, {
    message: 'STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (webhooks are verified by their signature)',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine((c) => !c.MICROSOFT_CLIENT_ID || !!c.INTEGRATION_TOKEN_KEY, {
    message: 'INTEGRATION_TOKEN_KEY is required with MICROSOFT_CLIENT_ID (the tokens are stored encrypted)',
    path: ['INTEGRATION_TOKEN_KEY'],
  })
  .refine((c) => c.NODE_ENV !== 'production' || !!c.JWT_SECRET, {
    message: 'JWT_SECRET is required in production',
    path: ['JWT_SECRET'],
  })
  .refine((c) => c.INGEST_JOB_TIMEOUT_MS === undefined || c.INGEST_JOB_TIMEOUT_MS > c.INGEST_TIMEOUT_MS, {
    message: 'INGEST_JOB_TIMEOUT_MS must be longer than INGEST_TIMEOUT_MS (the reading is only part of the job)',
    path: ['INGEST_JOB_TIMEOUT_MS'],
  })
  .transform((c) => ({
    ...c,
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
    // The outbox exists to read mail that is not really sent on a developer's machine: with SMTP
    // configured, or in production, it stays off whatever the setting says.
    DEV_OUTBOX: c.DEV_OUTBOX && !c.SMTP_URL && c.NODE_ENV !== 'production',
    // Outside production a missing secret gets a random one per process: tokens then die at restart.
    JWT_SECRET: c.JWT_SECRET ?? randomBytes(32).toString('hex'),
    PASSWORD_HASH_COST: c.NODE_ENV === 'test' ? c.PASSWORD_HASH_COST : ('standard' as const),
    GOOGLE_ENABLED: !!(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
    MICROSOFT_ENABLED: !!(c.MICROSOFT_CLIENT_ID && c.MICROSOFT_CLIENT_SECRET && c.INTEGRATION_TOKEN_KEY),
    MICROSOFT_LOGIN_URL: c.MICROSOFT_LOGIN_URL.replace(/\/+$/, ''),
    MICROSOFT_GRAPH_URL: c.MICROSOFT_GRAPH_URL.replace(/\/+$/, ''),
    MICROSOFT_DOWNLOAD_HOSTS: c.MICROSOFT_DOWNLOAD_HOSTS.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== ''),
    STORAGE_DRIVER: c.STORAGE_DRIVER ?? (c.S3_BUCKET ? ('s3' as const) : ('local' as const)),
    INGEST_JOB_TIMEOUT_MS: c.INGEST_JOB_TIMEOUT_MS ?? 2 * c.INGEST_TIMEOUT_MS,
    /** Any OpenAI-compatible endpoint; without one the offline answer engine answers. */
    LLM_ENABLED: !!(c.LLM_BASE_URL || c.LLM_API_KEY),
    /** Payments go through Stripe; otherwise through the local test-payment provider. */
    STRIPE_ENABLED: !!c.STRIPE_SECRET_KEY,
    ADMIN_EMAILS: (c.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== ''),
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
