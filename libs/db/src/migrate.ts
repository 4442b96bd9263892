import fs from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';

export const MIGRATIONS_FOLDER = path.resolve(__dirname, '..', 'migrations');

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 727_450_001;

/**
 * Applies the committed migrations. Api and worker both call this at boot; the advisory lock makes
 * the second one wait and then find nothing to do.
 */
export async function runMigrations(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/**
 * How many committed migrations the database has not applied yet (readiness): the journal's
 * entries newer than the last one drizzle recorded. A database that was never migrated has none
 * recorded, so all of them are pending.
 */
export async function pendingMigrations(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<number> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>;
  };
  let last = 0;
  try {
    const { rows } = await query('SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations');
    last = Number((rows[0] as { last: string | null } | undefined)?.last ?? 0);
  } catch (err) {
    // No migrations table: nothing was ever applied. Anything else (the database is away) is the caller's.
    if ((err as { code?: string }).code !== '42P01' && (err as { code?: string }).code !== '3F000') throw err;
  }
  return journal.entries.filter((e) => e.when > last).length;
}
