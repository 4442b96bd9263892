import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from './schema/index';

export type Database = NodePgDatabase<typeof schema>;
/** A transaction begun with `db.transaction`: repositories given one (`withTx`) act inside it. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a repository runs its statements on: the pool, or a transaction it was handed. */
export type Executor = Database | Transaction;

export interface DbHandle {
  db: Database;
  pool: Pool;
  close(): Promise<void>;
}

export function createDb(url: string, max = 10): DbHandle {
  // No JIT: the app's statements are short, and a plan whose estimate passes jit_above_cost (the
  // retrieval search, costed high by chunk_prefixes' COST) spends ~50 ms compiling to save nothing.
  // Set when each connection starts (PGlite, which has no JIT anyway, ignores it).
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000, options: '-c jit=off' });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor one that loses it while checked out (a transaction waiting for its next statement): the
  // holder learns it from its next query, which fails.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
