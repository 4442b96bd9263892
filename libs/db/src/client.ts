import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from './schema/index';

export type Database = NodePgDatabase<typeof schema>;

export interface DbHandle {
  db: Database;
  pool: Pool;
  close(): Promise<void>;
}

export function createDb(url: string, max = 10): DbHandle {
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // No JIT: the app's statements are short, and a plan whose estimate passes jit_above_cost (the
  // retrieval search, costed high by chunk_prefixes' COST) spends ~50 ms compiling to save nothing.
  // The SET is queued before the client's first query; a server without the setting ignores it.
  pool.on('connect', (client) => void client.query('SET jit = off').catch(() => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
