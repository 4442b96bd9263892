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
